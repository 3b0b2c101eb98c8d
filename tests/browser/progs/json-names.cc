// nlohmann::json (Debian's nlohmann-json3-dev) for the report's C++ names (browser.cxx-names):
// json and ordered_json parse, walk, copy and dump the same document, so the capture has the
// library's long template names (up to thousands of characters demangled) twice over, one
// template argument apart.  The report must show short names that end in the method's own name
// (parse, dump, destroy, assert_invariant), and the full name on hover.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

template <class J> static unsigned long walk(const J &j)
{
	unsigned long n = 1;
	if (j.is_object() || j.is_array())
		for (const auto &x : j)
			n += walk(x);
	return n;
}

template <class J> static unsigned long round_trip(const std::string &text, int times)
{
	unsigned long n = 0;
	for (int i = 0; i < times; i++) {
		J j = J::parse(text);
		J copy = j;
		n += walk(copy) + copy.dump().size();
	}
	return n;
}

int main()
{
	std::string text = "{\"loans\": [";
	for (int i = 0; i < 400; i++)
		text += std::string(i ? "," : "") + "{\"id\": " + std::to_string(i) +
			", \"rate\": 0.0" + std::to_string(i % 9 + 1) + ", \"name\": \"loan " + std::to_string(i) +
			"\", \"tags\": [\"a\", \"b\", true, null]}";
	text += "]}";
	unsigned long a = round_trip<nlohmann::json>(text, 30);
	unsigned long b = round_trip<nlohmann::ordered_json>(text, 30);
	std::printf("%lu %lu\n", a, b);
	return a == b ? 0 : 1;
}
