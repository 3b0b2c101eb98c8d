"""Untrusted names: function names, file paths, arguments and thread names with quotes, '<', '&',
newlines, invalid UTF-8 and very long values pass through every output without breaking its syntax
or running script.

The program is written here into a directory whose name has quotes, '<', '&' and spaces; its C++
functions have '<', '>' and '&' in their names (templates, operators) and one has a 3000-character
name; a thread names itself with a quote, '<', '&', a newline and an invalid UTF-8 byte; the program
gets arguments with all of that, a 100 KB argument and "</script>".
Each output is parsed: JSON and Chrome with the json module, folded stacks line by line, the text
report's lines, and the HTML report's embedded data (script#xl-data) as JSON, with a check that no
name appears unescaped in the HTML.
"""
import html.parser
import re

from xltest import *

LONG = "f" + "_long" * 600                                   # 3001 characters
THREAD = b'q"<&\n\xff'                                          # 6 bytes, fits the 15 of a thread name
ARGS = ['a"b', "<script>alert(1)</script>", "&amp;", "line\nbreak", "</script><b>x</b>",
        "bad\udcffutf8", "x" * 100000, "--"]
SOURCE = r'''
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#define NOINLINE __attribute__((noinline))
template <typename T> struct Box { T v; };
struct Key { int k; };
template <typename T> NOINLINE int probe(const Box<T> &b) { return (int)b.v; }
NOINLINE bool operator<(const Key &a, const Key &b) { return a.k < b.k; }
NOINLINE int operator&(const Key &a, int m) { return a.k & m; }
extern "C" NOINLINE int %(long)s(int x) { __asm__ volatile("" : "+r"(x)); return x + 1; }
static NOINLINE void *named(void *arg) {
    static const char name[] = { %(thread)s, 0 };
    pthread_setname_np(pthread_self(), name);
    Key a{1}, b{2};
    *(int *)arg = (a < b) + (a & 3) + probe(Box<char>{'x'}) + %(long)s(1);
    return nullptr;
}
int main(int argc, char **argv) {
    int r = 0;
    pthread_t t;
    pthread_create(&t, nullptr, named, &r);
    pthread_join(t, nullptr);
    size_t total = 0;
    for (int i = 1; i < argc; i++) total += strlen(argv[i]);
    printf("r=%%d args=%%d bytes=%%zu\n", r, argc - 1, total);
    return 0;
}
''' % {"long": LONG, "thread": ", ".join("'\\x%02x'" % c for c in THREAD)}
NAMES = ["int probe<char>(Box<char> const&)", "operator<(Key const&, Key const&)",
         "operator&(Key const&, int)", LONG]


class Scripts(html.parser.HTMLParser):
    """Collects <script> elements: (attributes, text)."""

    def __init__(self):
        super().__init__()
        self.scripts, self._in = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._in = (dict(attrs), [])

    def handle_data(self, data):
        if self._in:
            self._in[1].append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._in:
            self.scripts.append((self._in[0], "".join(self._in[1])))
            self._in = None


def names_ok(doc, what):
    got = {f["name"] for f in doc["functions"]}
    for n in NAMES:
        check(n in got, "%s: function %.60s" % (what, n))
    files = {f["file"] for f in doc["functions"] if f.get("file")}
    check(any(x.endswith("src \"q'<&> dir/na\"me <&>.cc") for x in files), "%s: source path intact" % what)
    threads = [t["name"] for t in doc["threads"]]
    check(any(t.startswith('q"<&') for t in threads), "%s: thread name kept (%r)" % (what, threads))


with Workdir() as w:
    d = os.path.join(w.path, "src \"q'<&> dir")
    os.makedirs(d)
    src = os.path.join(d, "na\"me <&>.cc")
    open(src, "w").write(SOURCE)
    p = w.run(["--profile", "--no-open", "run", "-pthread", src] + ARGS)
    eq(p.returncode, 0, "the program ran")
    eq(p.stdout, "r=%d args=%d bytes=%d\n" % (1 + 1 + ord("x") + 2, len(ARGS),
                                               sum(len(a.encode("utf-8", "surrogateescape")) for a in ARGS)),
       "the program got its arguments unchanged")
    cap = w.latest()
    for line in p.stderr.splitlines():
        check(line.startswith("exaloop: ") or line.startswith("  "), "exaloop's messages stay one per line: %.60r" % line)

    # JSON summary
    r = subprocess.run([EXALOOP, "profile", "report", cap, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    eq(r.returncode, 0, "json: report")
    doc = json.loads(r.stdout.decode("utf-8"))
    names_ok(doc, "json")
    args = doc["run"].get("args") or []
    eq(len(args), len(ARGS), "json: every argument kept")
    check(args[:6] == ARGS[:5] + ["bad\ufffdutf8"], "json: arguments exact (invalid UTF-8 as U+FFFD): %.300r" % args[:6])
    check(len(args) > 6 and args[6] == ARGS[6], "json: the 100 KB argument intact")

    # Chrome trace
    r = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "chrome"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    eq(r.returncode, 0, "chrome: export")
    trace = json.loads(r.stdout.decode("utf-8"))
    evnames = {e["name"] for e in trace["traceEvents"] if e.get("ph") == "X"}
    for n in NAMES:
        check(n in evnames, "chrome: event %.60s" % n)
    tnames = [e["args"]["name"] for e in trace["traceEvents"] if e.get("name") == "thread_name"]
    check(any(t.startswith('q"<&') for t in tnames), "chrome: thread name")

    # Folded stacks: "frame;frame;... <ns>" per line, frames without ';' or newlines
    r = subprocess.run([EXALOOP, "profile", "export", cap, "--format", "folded"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    eq(r.returncode, 0, "folded: export")
    lines = r.stdout.decode("utf-8", "replace").splitlines()
    check(lines and all(re.fullmatch(r"[^\n]+ \d+", l) for l in lines), "folded: every line is 'stack count'")
    frames = {f for l in lines for f in l.rsplit(" ", 1)[0].split(";")}
    for n in NAMES:
        check(n in frames, "folded: frame %.60s" % n)

    # Text report: one row per function, the header lines stay lines
    r = subprocess.run([EXALOOP, "profile", "report", cap, "--text"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    eq(r.returncode, 0, "text: report")
    text = r.stdout.decode("utf-8", "replace").splitlines()
    cmd = [l for l in text if l.startswith("command:")]
    eq(len(cmd), 1, "text: the command is one line")
    check(not any(l.startswith("break") for l in text), "text: an argument's newline does not start a line")
    rows = [l for l in text if re.match(r"\s+\d+ ", l)]
    eq(len(rows), len(doc["functions"]), "text: one row per function")
    for f in doc["functions"]:   # by their short names (the long one cut to 100 characters)
        check(any(f["short_name"] in l for l in rows), "text: row for %.60s" % f["short_name"])
    r = subprocess.run([EXALOOP, "profile", "report", cap, "--text", "--full-names"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    eq(r.returncode, 0, "text: report --full-names")
    rows = [l for l in r.stdout.decode("utf-8", "replace").splitlines() if re.match(r"\s+\d+ ", l)]
    for n in NAMES:
        check(any(n in l for l in rows), "text --full-names: row for %.60s" % n)

    # HTML report: the embedded data parses, and nothing arrives unescaped
    r = subprocess.run([EXALOOP, "--no-open", "profile", "report", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    eq(r.returncode, 0, "html: report")
    page = open(os.path.join(cap, "index.html"), encoding="utf-8").read()
    sp = Scripts()
    sp.feed(page)
    data = [t for a, t in sp.scripts if a.get("id") == "xl-data"]
    eq(len(data), 1, "html: one xl-data element")
    eq(len(data) and [a.get("type") for a, t in sp.scripts if a.get("id") == "xl-data"][0], "application/json",
       "html: xl-data is application/json")
    if data:
        names_ok(json.loads(data[0]), "html data")
    for bad in ["<script>alert(1)</script>", "</script><b>x</b>", "Box<char>", "operator<(", "<&>", 'q"<&']:
        check(bad not in page, "html: %r does not appear unescaped" % bad)
    eq(len(re.findall(r"<script\b", page)), len(sp.scripts), "html: no extra script element")
    # the CSP runs only the report's own script: a 128-bit nonce, fresh in every report
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    nonce = csp and re.search(r"script-src 'nonce-([0-9a-f]{32})'", csp.group(1))
    check(nonce is not None and "unsafe-inline" not in csp.group(1), "html: CSP by nonce, no unsafe-inline")
    if nonce:
        n = nonce.group(1)
        code = [a for a, t in sp.scripts if a.get("id") != "xl-data"]
        eq([a.get("nonce") for a in code], [n], "html: the one code script carries the nonce")
        check('<style nonce="%s">' % n in page and "style-src 'nonce-%s'" % n in csp.group(1), "html: styles by the nonce")
        again = os.path.join(w.path, "again.html")
        eq(w.run(["profile", "export", cap, "--format", "html", "-o", again]).returncode, 0, "html: export again")
        check(n not in open(again, encoding="utf-8").read(), "html: a fresh nonce in every report")
done()
