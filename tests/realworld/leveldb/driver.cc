// A deterministic LevelDB workload for tests/realworld/t-leveldb.py.
//
// usage: driver DIR N
//
// One thread (main) writes N keys (single Puts and WriteBatches, in a scattered order), reads
// them back, takes a snapshot, overwrites and deletes some, reads through the snapshot and
// without it, iterates forwards, backwards and by Seek, closes and reopens the database (log
// recovery), and prints what it read as counts and FNV-1a checksums.  Every flush and
// compaction is asked for by CompactRange, which waits for LevelDB's background thread to do
// it: the memtable never fills (write_buffer_size is far above what is written), level 0 never
// reaches its compaction trigger, and no lookup reads two files of a version (each read follows
// a full compaction, so seeks never charge a file), so no compaction starts by itself and the
// calls are the same run to run.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>

#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/iterator.h"
#include "leveldb/options.h"
#include "leveldb/write_batch.h"

namespace {

const char* const kWords[] = {"amber", "basalt", "cobalt", "dune", "ember", "fjord", "granite", "heath"};
const int kStride = 7919;  // a prime: j * kStride % n visits every key once when n is no multiple of it

struct Sum {
  uint64_t hash = 14695981039346656037ull;
  long items = 0;

  void Bytes(const leveldb::Slice& s) {
    for (size_t i = 0; i < s.size(); i++) {
      hash ^= static_cast<unsigned char>(s[i]);
      hash *= 1099511628211ull;
    }
  }
  void Pair(const leveldb::Slice& k, const leveldb::Slice& v) {
    Bytes(k);
    Bytes(v);
    items++;
  }
};

std::string Key(int i) {
  char b[16];
  snprintf(b, sizeof b, "k%07d", i);
  return b;
}

// A value of 8 to 24 words (snappy finds repeats) and its key's number and version.
std::string Value(int i, int version) {
  uint32_t x = static_cast<uint32_t>(i) * 2654435761u + static_cast<uint32_t>(version) * 40503u + 1;
  std::string v;
  int words = 8 + static_cast<int>(x % 17);
  for (int w = 0; w < words; w++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    v += kWords[x % 8];
    v += ' ';
  }
  char b[32];
  snprintf(b, sizeof b, "#%d.%d", i, version);
  return v + b;
}

void Check(const leveldb::Status& s, const char* what) {
  if (!s.ok()) {
    fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    exit(1);
  }
}

void Print(const char* what, const Sum& s) {
  printf("%-28s %8ld  %016llx\n", what, s.items, static_cast<unsigned long long>(s.hash));
}

// Every key 0..n+extra-1 by Get: the found ones summed, the missing ones counted.
Sum GetAll(leveldb::DB* db, int n, const leveldb::Snapshot* snap, long* missing) {
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  Sum s;
  std::string v;
  *missing = 0;
  for (int i = 0; i < n; i++) {
    std::string k = Key(i);
    leveldb::Status st = db->Get(ro, k, &v);
    if (st.IsNotFound()) {
      ++*missing;
      continue;
    }
    Check(st, "get");
    s.Pair(k, v);
  }
  return s;
}

Sum ScanForward(leveldb::DB* db, const leveldb::Snapshot* snap) {
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  leveldb::Iterator* it = db->NewIterator(ro);
  Sum s;
  for (it->SeekToFirst(); it->Valid(); it->Next()) s.Pair(it->key(), it->value());
  Check(it->status(), "scan");
  delete it;
  return s;
}

Sum ScanBackward(leveldb::DB* db, const leveldb::Snapshot* snap) {
  leveldb::ReadOptions ro;
  ro.snapshot = snap;
  leveldb::Iterator* it = db->NewIterator(ro);
  Sum s;
  for (it->SeekToLast(); it->Valid(); it->Prev()) s.Pair(it->key(), it->value());
  Check(it->status(), "reverse scan");
  delete it;
  return s;
}

// Seek to every 97th key's neighbourhood and read the next 5 entries.
Sum Seeks(leveldb::DB* db, int n) {
  leveldb::Iterator* it = db->NewIterator(leveldb::ReadOptions());
  Sum s;
  for (int i = 0; i < n; i += 97) {
    it->Seek(Key(i) + "~");  // just after key i: the next key present
    for (int k = 0; k < 5 && it->Valid(); k++, it->Next()) s.Pair(it->key(), it->value());
  }
  Check(it->status(), "seek");
  delete it;
  return s;
}

void Levels(leveldb::DB* db, const char* when) {
  std::string files;
  for (int level = 0; level < 7; level++) {
    std::string v;
    char name[64];
    snprintf(name, sizeof name, "leveldb.num-files-at-level%d", level);
    if (!db->GetProperty(name, &v)) v = "?";
    files += (level ? " " : "") + v;
  }
  printf("%-28s files per level: %s\n", when, files.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || atoi(argv[2]) <= 0 || atoi(argv[2]) % kStride == 0) {
    fprintf(stderr, "usage: %s DIR N  (N > 0, no multiple of %d)\n", argv[0], kStride);
    return 2;
  }
  const std::string path = argv[1];
  const int n = atoi(argv[2]);
  const leveldb::FilterPolicy* bloom = leveldb::NewBloomFilterPolicy(10);
  leveldb::Options opt;
  opt.create_if_missing = true;
  opt.write_buffer_size = 256 << 20;
  opt.filter_policy = bloom;
  leveldb::DestroyDB(path, opt);
  leveldb::DB* db = NULL;
  Check(leveldb::DB::Open(opt, path, &db), "open");
  leveldb::WriteOptions wo;

  // 1. Fill, in a scattered order: even steps single Puts, odd ones WriteBatches of 50.
  leveldb::WriteBatch batch;
  int batched = 0, batches = 0;
  for (int j = 0; j < n; j++) {
    int i = static_cast<int>(static_cast<int64_t>(j) * kStride % n);
    if (j % 2 == 0) {
      Check(db->Put(wo, Key(i), Value(i, 0)), "put");
    } else {
      batch.Put(Key(i), Value(i, 0));
      if (++batched % 50 == 0) {
        Check(db->Write(wo, &batch), "write");
        batch.Clear();
        batches++;
      }
    }
  }
  if (batched % 50) {
    Check(db->Write(wo, &batch), "write");
    batch.Clear();
    batches++;
  }
  printf("fill: %d keys, %d by %d batches\n", n, batched, batches);
  long missing;
  Sum original = GetAll(db, n + n / 10, NULL, &missing);
  Print("get (memtable)", original);
  printf("%-28s %8ld\n", "  missing", missing);

  // 2. Everything to the files: CompactRange flushes the memtable and waits.
  db->CompactRange(NULL, NULL);
  Levels(db, "compacted");
  Sum s = GetAll(db, n + n / 10, NULL, &missing);
  Print("get (tables)", s);
  Print("scan", ScanForward(db, NULL));

  // 3. A snapshot, then overwrite every third key and delete every fifth (batches and singles).
  const leveldb::Snapshot* snap = db->GetSnapshot();
  int overwritten = 0, deleted = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0) {
      batch.Put(Key(i), Value(i, 1));
      overwritten++;
    }
    if (i % 5 == 0) {
      if (i % 2) {
        batch.Delete(Key(i));
      } else {
        Check(db->Delete(wo, Key(i)), "delete");
      }
      deleted++;
    }
    if (i % 100 == 99) {
      Check(db->Write(wo, &batch), "write");
      batch.Clear();
    }
  }
  Check(db->Write(wo, &batch), "write");
  batch.Clear();
  printf("overwrote %d, deleted %d\n", overwritten, deleted);
  s = GetAll(db, n, snap, &missing);
  Print("get (snapshot)", s);
  printf("%-28s %s\n", "  == the first reads", s.hash == original.hash ? "yes" : "NO");
  s = GetAll(db, n, NULL, &missing);
  Print("get (now)", s);
  printf("%-28s %8ld\n", "  missing", missing);
  Print("scan (now)", ScanForward(db, NULL));
  Print("reverse scan (snapshot)", ScanBackward(db, snap));
  Print("seeks", Seeks(db, n));

  // 4. Compact with the snapshot alive (old versions stay), then release it and compact again.
  db->CompactRange(NULL, NULL);
  Levels(db, "compacted, snapshot held");
  s = GetAll(db, n, snap, &missing);
  printf("%-28s %s\n", "get (snapshot) == first", s.hash == original.hash ? "yes" : "NO");
  db->ReleaseSnapshot(snap);

  // 5. Delete a quarter of the keys one by one and compact just that range.
  for (int i = n / 4; i < n / 2; i++) Check(db->Delete(wo, Key(i)), "delete");
  std::string from = Key(n / 4), to = Key(n / 2);
  leveldb::Slice a(from), b(to);
  db->CompactRange(&a, &b);
  Levels(db, "range compacted");
  Print("scan", ScanForward(db, NULL));
  Print("reverse scan", ScanBackward(db, NULL));

  // 6. Reopen twice: the second recovers the log of a few writes into a table.
  delete db;
  opt.create_if_missing = false;
  Check(leveldb::DB::Open(opt, path, &db), "reopen");
  for (int i = n; i < n + n / 100; i++) Check(db->Put(wo, Key(i), Value(i, 2)), "put");
  delete db;
  Check(leveldb::DB::Open(opt, path, &db), "reopen");
  Levels(db, "recovered");
  db->CompactRange(NULL, NULL);
  Levels(db, "compacted");
  s = GetAll(db, n + n / 10, NULL, &missing);
  Print("get (final)", s);
  printf("%-28s %8ld\n", "  missing", missing);
  Print("scan (final)", ScanForward(db, NULL));
  Print("seeks (final)", Seeks(db, n));
  delete db;
  Check(leveldb::DestroyDB(path, opt), "destroy");
  delete bloom;
  printf("done\n");
  return 0;
}
