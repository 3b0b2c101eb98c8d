"""The runtime measures its own cost per traced call at finalization (capture header cal_calls/cal_ticks)
and the report's overhead note says "measured"; without it (clock_gettime clock) it says "typical".
No timing is asserted: only that a positive figure was measured and is used."""
import re
import struct

from xltest import *

HDR_CAL = 232   # offsetof(struct xl_cap_header, cal_calls), include/exaloop/xl_capture.h


def cal(capture):
    with open(os.path.join(capture, "capture.xlc"), "rb") as f:
        return struct.unpack_from("<QQ", f.read(256), HDR_CAL)


def overhead(s):
    w = s.note("overhead")
    m = re.search(r"about (\d+) ns per traced call \((measured|typical)\)", w["message"]) if w else None
    return (int(m.group(1)), m.group(2)) if m else None


with Workdir() as w:
    for trampolines in ("exaloop", "stock"):
        env = {"EXALOOP_STOCK_TRAMPOLINES": "1"} if trampolines == "stock" else {}
        p = w.run(["--profile", "--no-open", "run", "-release", prog("s-fib.c"), "22"], env=env)
        eq(p.returncode, 0, trampolines + ": run")
        calls, ticks = cal(w.latest())
        check(calls > 0 and ticks > 0, trampolines + ": header holds a measurement (%d calls, %d ticks)" % (calls, ticks))
        o = overhead(w.summary())
        check(o is not None and o[1] == "measured" and o[0] > 0,
              trampolines + ": overhead note uses the measurement: %r" % (o,))

    p = w.run(["--profile", "--no-open", "run", "-release", prog("s-fib.c"), "22"], env={"EXALOOP_CLOCK": "monotonic"})
    eq(cal(w.latest()), (0, 0), "clock_gettime clock: nothing measured")
    o = overhead(w.summary())
    check(o is not None and o[1] == "typical", "clock_gettime clock: overhead note says typical: %r" % (o,))

    p = w.run(["--profile=memory", "--no-open", "run", "-release", prog("s-fib.c"), "22"])
    eq(cal(w.latest()), (0, 0), "memory-only capture: nothing measured")
done()
