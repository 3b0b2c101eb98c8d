# Builds Snappy, LevelDB (its own Makefile) and driver.cc in TREE, as a user would:
#   sh build.sh TREE      with CC and CXX the compilers (exaloop's wrappers, or clang with XRAY)
# TREE holds the npm package's deps/leveldb/leveldb-1.20 and deps/snappy, and driver.cc.
# XRAY: extra compiler flags for every compile and the link (the plain XRay build's).
set -e
cd "$1"
OPT="-O2 -g2 -DNDEBUG $XRAY"      # the Makefile's "(C) Profiling mode", plus XRAY
SNAPPY=$PWD/deps/snappy
LEVELDB=$PWD/deps/leveldb/leveldb-1.20
# Snappy has no makefile in the package (node-gyp builds it): compile the library's three files.
mkdir -p snappy-build
for f in snappy snappy-sinksource snappy-stubs-internal; do
  $CXX $OPT -DHAVE_CONFIG_H=1 -I"$SNAPPY/linux" -I"$SNAPPY/snappy" -c "$SNAPPY/snappy/$f.cc" -o snappy-build/$f.o
done
ar rcs snappy-build/libsnappy.a snappy-build/*.o
# build_detect_platform finds <snappy.h> through CXXFLAGS (LevelDB then defines SNAPPY).  Its probes
# (`$CXX -x c++ - -o $TMPDIR/...`) link executables in TMPDIR, kept inside the tree.  The npm
# package drops the script's execute bit.
chmod +x "$LEVELDB/build_detect_platform"
mkdir -p tmp
CXXFLAGS="-I$SNAPPY/snappy -I$SNAPPY/linux" TMPDIR="$PWD/tmp" make -C "$LEVELDB" OPT="$OPT" out-static/libleveldb.a
$CXX $OPT -std=c++11 -pthread -I"$LEVELDB/include" driver.cc "$LEVELDB/out-static/libleveldb.a" \
  -Lsnappy-build -lsnappy -o driver
