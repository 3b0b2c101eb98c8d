// driver.cc - a deterministic workload over nlohmann::json (Debian's nlohmann-json3-dev)
// for the realworld tests.
//
// Usage: driver [RECORDS]   (default 1500)
//
// The library is header-only templates; this driver instantiates json and ordered_json,
// subclasses the library's virtual SAX interface (nlohmann::json_sax) twice — once to
// tally events, once to abort a parse by throwing from inside a callback — and makes the
// library throw its own exceptions (parse_error from malformed text, type_error and
// out_of_range from wrong accesses), catching each in the driver.  Everything printed
// depends only on RECORDS, so captured and uncaptured runs print the same text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A 64-bit LCG (Knuth's MMIX constants): the same records on every run.
std::uint64_t state = 20260601;
unsigned next(unsigned bound)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>((state >> 33) % bound);
}

std::uint64_t fnv1a(const std::string &s)
{
    std::uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ULL;
    return h;
}

json make_record(unsigned i)
{
    static const char *const words[] = {"alpha", "Beta", "gamma", "delta\n", "\u00e9psilon", "zeta", "eta \"q\""};
    json r;
    r["id"] = i;
    r["name"] = std::string(words[next(7)]) + "-" + std::to_string(next(1000));
    r["score"] = static_cast<double>(next(100000)) / 64.0;
    r["delta"] = static_cast<int>(next(2001)) - 1000;
    r["active"] = next(3) != 0;
    r["tags"] = json::array();
    for (unsigned k = 0, n = next(5); k < n; k++)
        r["tags"].push_back(words[next(7)]);
    if (next(4) == 0)
        r["parent"] = nullptr;
    else
        r["parent"] = {{"id", next(i + 1)}, {"weight", next(50)}};
    return r;
}

// Tallies every SAX event by kind; the library calls these through its vtable.
class Tally : public nlohmann::json_sax<json> {
  public:
    std::map<std::string, unsigned long> events;
    std::size_t depth = 0, max_depth = 0;
    double float_sum = 0;

    bool null() override { return bump("null"); }
    bool boolean(bool) override { return bump("boolean"); }
    bool number_integer(number_integer_t) override { return bump("integer"); }
    bool number_unsigned(number_unsigned_t) override { return bump("unsigned"); }
    bool number_float(number_float_t v, const string_t &) override
    {
        float_sum += v;
        return bump("float");
    }
    bool string(string_t &) override { return bump("string"); }
    bool binary(binary_t &) override { return bump("binary"); }
    bool key(string_t &) override { return bump("key"); }
    bool start_object(std::size_t) override { return enter("object"); }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return enter("array"); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override
    {
        return bump("error") && false;
    }

  private:
    bool bump(const char *kind)
    {
        events[kind]++;
        return true;
    }
    bool enter(const char *kind)
    {
        if (++depth > max_depth)
            max_depth = depth;
        return bump(kind);
    }
    bool leave()
    {
        depth--;
        return true;
    }
};

// A handler that gives up by throwing from inside the library's parse loop once it has
// seen `limit` keys; derived from Tally so that the other events go through its vtable.
struct Quota : std::runtime_error {
    explicit Quota(unsigned long n) : std::runtime_error("quota of " + std::to_string(n) + " keys") {}
};
class Limited : public Tally {
  public:
    explicit Limited(unsigned long limit) : limit_(limit) {}
    bool key(string_t &k) override
    {
        if (++keys_ > limit_)
            throw Quota(limit_);
        return Tally::key(k);
    }

  private:
    unsigned long limit_, keys_ = 0;
};

void print_tally(const char *what, const Tally &t)
{
    std::printf("%s:", what);
    for (const auto &e : t.events)
        std::printf(" %s=%lu", e.first.c_str(), e.second);
    std::printf(" max_depth=%zu float_sum=%.4f\n", t.max_depth, t.float_sum);
}

} // namespace

int main(int argc, char **argv)
{
    unsigned records = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 1500;
    if (records < 10) {
        std::fprintf(stderr, "driver: RECORDS must be at least 10\n");
        return 2;
    }

    // Build, serialise and parse back.
    json doc = {{"version", 3}, {"records", json::array()}};
    for (unsigned i = 0; i < records; i++)
        doc["records"].push_back(make_record(i));
    std::string text = doc.dump();
    std::string pretty = doc.dump(2);
    json back = json::parse(text);
    std::printf("records=%u text=%zu pretty=%zu roundtrip=%s hash=%016llx\n", records, text.size(), pretty.size(),
                back == doc ? "equal" : "DIFFERENT", static_cast<unsigned long long>(fnv1a(text)));

    // The same data in insertion order, and through CBOR and MessagePack.
    ordered_json ordered = ordered_json::parse(pretty);
    std::vector<std::uint8_t> cbor = json::to_cbor(doc), msgpack = json::to_msgpack(doc);
    std::printf("ordered=%016llx cbor=%zu msgpack=%zu cbor_back=%s msgpack_back=%s\n",
                static_cast<unsigned long long>(fnv1a(ordered.dump())), cbor.size(), msgpack.size(),
                json::from_cbor(cbor) == doc ? "equal" : "DIFFERENT",
                json::from_msgpack(msgpack) == doc ? "equal" : "DIFFERENT");

    // SAX over the whole text through the virtual interface.
    Tally tally;
    bool ok = json::sax_parse(text, &tally);
    print_tally(ok ? "sax" : "sax FAILED", tally);

    // Malformed text: truncations and corruptions, each a parse_error thrown by the library.
    std::map<int, unsigned> errors_by_id;
    unsigned parsed = 0;
    for (unsigned k = 1; k <= 60; k++) {
        std::string bad = text.substr(0, text.size() * k / 61);
        if (k % 3 == 0)
            bad += "}}";
        else if (k % 3 == 1)
            bad[bad.size() / 2] = '@';
        try {
            parsed += json::parse(bad).is_object();
        } catch (const json::parse_error &e) {
            errors_by_id[e.id]++;
        }
    }
    std::printf("malformed: parsed=%u", parsed);
    for (const auto &e : errors_by_id)
        std::printf(" parse_error.%d=%u", e.first, e.second);
    std::printf("\n");

    // Wrong accesses: type_error and out_of_range thrown from the library's templates.
    unsigned type_errors = 0, out_of_range = 0, fine = 0;
    long total = 0;
    for (const json &r : doc["records"]) {
        try {
            if (r["id"].get<unsigned>() % 5 == 0)
                total += static_cast<long>(r["name"].get<int>());   // a string: type_error 302
            total += r.at("parent").at("weight").get<long>();       // null parent: type_error 304
            if (r["id"].get<unsigned>() % 7 == 0)
                total += r.at("tags").at(9).get<std::string>().size();  // too few tags: out_of_range 401
            fine++;
        } catch (const json::type_error &e) {
            type_errors++;
            total += e.id;
        } catch (const json::out_of_range &e) {
            out_of_range++;
            total += e.id;
        }
    }
    std::printf("accesses: fine=%u type_error=%u out_of_range=%u total=%ld\n", fine, type_errors, out_of_range, total);

    // A SAX handler that throws from inside the parse, at growing limits.
    unsigned long stopped = 0, keys_seen = 0;
    for (unsigned long limit = 7; limit < records * 6UL; limit = limit * 2 + 3) {
        Limited limited(limit);
        try {
            json::sax_parse(text, &limited);
        } catch (const Quota &) {
            stopped++;
        }
        keys_seen += limited.events["key"];
    }
    std::printf("quota: stopped=%lu keys_seen=%lu\n", stopped, keys_seen);

    // Pointers, flatten, patch and diff.
    json flat = doc.flatten();
    json edited = doc;
    edited["/records/3/name"_json_pointer] = "renamed";
    edited.erase("version");
    json d = json::diff(doc, edited);
    std::printf("flat=%zu diff=%zu patched=%s\n", flat.size(), d.size(),
                doc.patch(d) == edited ? "equal" : "DIFFERENT");
    return 0;
}
