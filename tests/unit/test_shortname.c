/* unit.shortname: the short C++ names reports show (src/symbols/shortname.h).
 *
 * Single names: a table of demangled names with the quirks the reader must
 * get right (operator<, operator<<, operator(), conversion operators,
 * (anonymous namespace), lambdas, function-pointer return types,
 * decltype return types, [abi:cxx11] tags, inline namespaces, local
 * entities, thunks, clones, expressions in template arguments), each with
 * the form written out by hand; real names from nlohmann::json 3.11.2
 * (Debian's nlohmann-json3-dev, demangled by libstdc++ from a build of
 * tests/realworld/json/driver.cc), up to 5,390 characters.
 * Sets: colliding short forms told apart by template arguments, then
 * parameters, then numbers; equal names keep equal forms; every form of a
 * set is at most XL_SHORT_NAME_MAX characters and unique. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shortname.h"
#include "xl_errors.h"

struct pair {
	const char *in, *out;
};

static const struct pair single[] = {
	{"main", "main"},
	{"foo(int)", "foo"},
	{"#12", "#12"},
	{"(more call paths)", "(more call paths)"},
	{"0x401000", "0x401000"},
	/* not demangled functions: assembler labels, with markup */
	{"</script><img src=x onerror=alert(1)>", "</script><img src=x onerror=alert(1)>"},
	{"hot\"><b onmouseover=alert(1)>1", "hot\"><b onmouseover=alert(1)>1"},
	{"f(int) and more", "f(int) and more"},
	{"(anonymous namespace)::Tally::key(std::__cxx11::basic_string<char, std::char_traits<char>, "
	 "std::allocator<char> >&)",
	 "(anonymous namespace)::Tally::key"},
	{"bool operator< <int>(Foo<int> const&, Foo<int> const&)", "operator< <\u2026>"},
	{"ns::Foo::operator<(ns::Foo const&) const", "ns::Foo::operator<"},
	{"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> "
	 ">(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
	 "std::operator<< <\u2026>"},
	{"main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()"},
	{"Foo::operator()(int)", "Foo::operator()"},
	{"Foo::operator>>=(int)", "Foo::operator>>="},
	{"Foo::operator->() const", "Foo::operator->"},
	{"Foo::operator->*(int)", "Foo::operator->*"},
	{"operator new[](unsigned long)", "operator new[]"},
	{"operator delete(void*, unsigned long)", "operator delete"},
	{"operator\"\" _km(unsigned long long)", "operator\"\" _km"},
	{"Foo::operator bool() const", "Foo::operator bool"},
	{"Foo::operator std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >() const",
	 "Foo::operator std::basic_string<\u2026>"},
	{"void (*get_handler(int))(char)", "get_handler"},
	{"int (*ns::table())[3]", "ns::table"},
	{"int Foo::* getmember()", "getmember"},
	{"foo[abi:cxx11]()", "foo"},
	{"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > Foo::name[abi:cxx11]() "
	 "const",
	 "Foo::name"},
	{"void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<"
	 "int*, std::vector<int, std::allocator<int> > >, int const&)",
	 "std::vector<\u2026>::_M_realloc_insert<\u2026>"},
	{"decltype ({parm#1}.size()) std::size<std::vector<int, std::allocator<int> > >(std::vector<int, "
	 "std::allocator<int> > const&)",
	 "std::size<\u2026>"},
	{"foo(int)::Local::bar()", "foo(int)::Local::bar"},
	{"non-virtual thunk to Derived::f()", "non-virtual thunk to Derived::f"},
	{"foo(int) [clone .cold]", "foo [clone .cold]"},
	{"void f<((3)>(2))>()", "f<\u2026>"},
	{"std::enable_if<((sizeof (int))>(4)), void>::type g<int>()", "g<\u2026>"},
	{"Foo<&Bar::operator<, 3>::run()", "Foo<\u2026>::run"},
	{"Foo<&operator>, 3>::run()", "Foo<\u2026>::run"},
	{"Widget::{unnamed type#1}::operator()() const", "Widget::{unnamed type#1}::operator()"},
	{"std::_Function_handler<void (int), main::{lambda(int)#2}>::_M_invoke(std::_Any_data const&, int&&)",
	 "std::_Function_handler<\u2026>::_M_invoke"},
	{"void std::__1::vector<int, std::__1::allocator<int> >::push_back(int&&)", "std::vector<\u2026>::push_back"},
	{"std::function<bool (int, nlohmann::json_abi_v3_11_2::detail::parse_event_t)>::operator()(int, "
	 "nlohmann::json_abi_v3_11_2::detail::parse_event_t) const",
	 "std::function<\u2026>::operator()"},
	{"nlohmann::json_abi_v3_11_2::detail::exception::name(std::__cxx11::basic_string<char, "
	 "std::char_traits<char>, std::allocator<char> > const&, int)",
	 "nlohmann::detail::exception::name"},
	{"unsigned long long ns::count<char const*>(char const*, char const*)", "ns::count<\u2026>"},
	{"Foo::~Foo()", "Foo::~Foo"},
	{"std::vector<int, std::allocator<int> >::operator[](unsigned long)", "std::vector<\u2026>::operator[]"},
	{"Box<>::get()", "Box<>::get"},
	/* 103 characters: the scopes after the first give way, as few as need to */
	{"a123456789::b123456789::c123456789::d123456789::e123456789::f123456789::g123456789::h123456789::"
	 "method(int)",
	 "a123456789::\u2026::c123456789::d123456789::e123456789::f123456789::g123456789::h123456789::method"},
	/* a name longer than the maximum keeps its end: 99 characters of it */
	{"ns::a"
	 "veryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryvery"
	 "longname(int)",
	 "\u2026"
	 "eryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongname"},
};

static const struct pair params[] = {
	{"foo(int)", "foo(int)"},
	{"ns::Foo::operator<(ns::Foo const&) const", "ns::Foo::operator<(Foo const&) const"},
	{"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> "
	 ">(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
	 "std::operator<< <\u2026>(basic_ostream<\u2026>&, char const*)"},
	{"void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<"
	 "int*, std::vector<int, std::allocator<int> > >, int const&)",
	 "std::vector<\u2026>::_M_realloc_insert<\u2026>(__normal_iterator<\u2026>, int const&)"},
	{"Foo::name[abi:cxx11]() const &&", "Foo::name() const &&"},
	{"void (*get_handler(int))(char)", "get_handler(int)"},
	{"foo(int) [clone .cold]", "foo(int) [clone .cold]"},
};

/* Real names: nlohmann::json 3.11.2 and libstdc++ 12 (Debian 12). */
/* 328 characters */
static const char assert_map[] =
	"nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__cxx11::basic_string<char, std::"
	"char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlohma"
	"nn::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > >::"
	"assert_invariant(bool) const";

/* 364 characters */
static const char destroy_map[] =
	"nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__cxx11::basic_string<char, std::"
	"char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlohma"
	"nn::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > >::"
	"json_value::destroy(nlohmann::json_abi_v3_11_2::detail::value_t)";

/* 359 characters */
static const char assert_ordered[] =
	"nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__"
	"cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long,"
	" double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std:"
	":allocator<unsigned char> > >::assert_invariant(bool) const";

/* 395 characters */
static const char destroy_ordered[] =
	"nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__"
	"cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long,"
	" double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std:"
	":allocator<unsigned char> > >::json_value::destroy(nlohmann::json_abi_v3_11_2::detail::value_t)";

/* 2524 characters */
static const char emplace_hint[] =
	"std::_Rb_tree_iterator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::alloc"
	"ator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__cxx11::basi"
	"c_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, st"
	"d::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<"
	"unsigned char> > > > > std::_Rb_tree<std::__cxx11::basic_string<char, std::char_traits<char>, std::a"
	"llocator<char> >, std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<"
	"char> > const, nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__cxx11::basic_str"
	"ing<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::al"
	"locator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsig"
	"ned char> > > >, std::_Select1st<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, "
	"std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<std::map, std::vector, std::__c"
	"xx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, "
	"double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::"
	"allocator<unsigned char> > > > >, std::less<void>, std::allocator<std::pair<std::__cxx11::basic_stri"
	"ng<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_jso"
	"n<std::map, std::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<cha"
	"r> >, bool, long, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer,"
	" std::vector<unsigned char, std::allocator<unsigned char> > > > > >::_M_emplace_hint_unique<std::pie"
	"cewise_construct_t const&, std::tuple<std::__cxx11::basic_string<char, std::char_traits<char>, std::"
	"allocator<char> > const&>, std::tuple<> >(std::_Rb_tree_const_iterator<std::pair<std::__cxx11::basic"
	"_string<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basi"
	"c_json<std::map, std::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocato"
	"r<char> >, bool, long, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serial"
	"izer, std::vector<unsigned char, std::allocator<unsigned char> > > > >, std::piecewise_construct_t c"
	"onst&, std::tuple<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > co"
	"nst&>&&, std::tuple<>&&)";

/* 5390 characters */
static const char uninit_copy[] =
	"std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, nlo"
	"hmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx"
	"11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, do"
	"uble, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::al"
	"locator<unsigned char> > > >* std::__do_uninit_copy<__gnu_cxx::__normal_iterator<std::pair<std::__cx"
	"x11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_"
	"11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<ch"
	"ar, std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocato"
	"r, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned ch"
	"ar> > > > const*, std::vector<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std"
	"::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordere"
	"d_map, std::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >,"
	" bool, long, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std:"
	":vector<unsigned char, std::allocator<unsigned char> > > >, std::allocator<std::pair<std::__cxx11::b"
	"asic_string<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::"
	"basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<char, st"
	"d::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlo"
	"hmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > "
	"> > > > >, std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
	" const, nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector,"
	" std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, long, unsign"
	"ed long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned ch"
	"ar, std::allocator<unsigned char> > > >*>(__gnu_cxx::__normal_iterator<std::pair<std::__cxx11::basic"
	"_string<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basi"
	"c_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<char, std::c"
	"har_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlohman"
	"n::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > > > "
	"const*, std::vector<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocato"
	"r<char> > const, nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std"
	"::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool, lon"
	"g, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<un"
	"signed char, std::allocator<unsigned char> > > >, std::allocator<std::pair<std::__cxx11::basic_strin"
	"g<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_json"
	"<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<char, std::char_tr"
	"aits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlohmann::jso"
	"n_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > > > > > >,"
	" __gnu_cxx::__normal_iterator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std"
	"::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordere"
	"d_map, std::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >,"
	" bool, long, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std:"
	":vector<unsigned char, std::allocator<unsigned char> > > > const*, std::vector<std::pair<std::__cxx1"
	"1::basic_string<char, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11"
	"_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<char"
	", std::char_traits<char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator,"
	" nlohmann::json_abi_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char"
	"> > > >, std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allo"
	"cator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<nlohmann::json_abi_v3_11_2::ordered_map,"
	" std::vector, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, bool,"
	" long, unsigned long, double, std::allocator, nlohmann::json_abi_v3_11_2::adl_serializer, std::vecto"
	"r<unsigned char, std::allocator<unsigned char> > > > > > >, std::pair<std::__cxx11::basic_string<cha"
	"r, std::char_traits<char>, std::allocator<char> > const, nlohmann::json_abi_v3_11_2::basic_json<nloh"
	"mann::json_abi_v3_11_2::ordered_map, std::vector, std::__cxx11::basic_string<char, std::char_traits<"
	"char>, std::allocator<char> >, bool, long, unsigned long, double, std::allocator, nlohmann::json_abi"
	"_v3_11_2::adl_serializer, std::vector<unsigned char, std::allocator<unsigned char> > > >*)";

/* Each table entry's form by fn: the one written out, within the maximum. */
static void check_table(const struct pair *t, size_t n, char *(*fn)(const char *))
{
	for (size_t i = 0; i < n; i++) {
		char *s = fn(t[i].in);
		assert_non_null(s);
		if (strcmp(s, t[i].out) != 0)
			fail_msg("%s\n  got      %s\n  expected %s", t[i].in, s, t[i].out);
		assert_true(xl_u8len(s) <= XL_SHORT_NAME_MAX);
		free(s);
	}
}

static void single_names(void **state)
{
	(void)state;
	check_table(single, sizeof(single) / sizeof(single[0]), xl_short_name);
}

static void with_params(void **state)
{
	(void)state;
	check_table(params, sizeof(params) / sizeof(params[0]), xl_short_name_params);
}

static void real_nlohmann_names(void **state)
{
	(void)state;
	const struct pair real[] = {
		{assert_map, "nlohmann::basic_json<\u2026>::assert_invariant"},
		{destroy_ordered, "nlohmann::basic_json<\u2026>::json_value::destroy"},
		{emplace_hint, "std::_Rb_tree<\u2026>::_M_emplace_hint_unique<\u2026>"},
		{uninit_copy, "std::__do_uninit_copy<\u2026>"},
	};
	assert_true(strlen(uninit_copy) == 5390);
	for (size_t i = 0; i < sizeof(real) / sizeof(real[0]); i++) {
		char *s = xl_short_name(real[i].in);
		assert_non_null(s);
		assert_string_equal(s, real[i].out);
		free(s);
	}
}

/* xl_short_names over names[0..n) == want[0..n); each form at most the
 * maximum, and forms of different names differ. */
static void check_set(const char *const *names, const char *const *want, size_t n)
{
	char **got = calloc(n, sizeof(*got));
	assert_non_null(got);
	assert_int_equal(xl_short_names(names, got, n, sizeof(char *)), XL_OK);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(got[i]);
		if (want && strcmp(got[i], want[i]) != 0)
			fail_msg("%.200s\n  got      %s\n  expected %s", names[i], got[i], want[i]);
		assert_true(xl_u8len(got[i]) <= XL_SHORT_NAME_MAX);
		for (size_t j = 0; j < i; j++)
			if (strcmp(names[i], names[j]) != 0 && strcmp(got[i], got[j]) == 0)
				fail_msg("two names shown as %s:\n  %.200s\n  %.200s", got[i], names[i], names[j]);
	}
	for (size_t i = 0; i < n; i++)
		free(got[i]);
	free(got);
}

#define CHECK_SET(names, want)                                                    \
	do {                                                                      \
		_Static_assert(sizeof(names) == sizeof(want), "one form a name"); \
		check_set(names, want, sizeof(names) / sizeof(names[0]));         \
	} while (0)

static void set_overloads(void **state)
{
	(void)state;
	const char *names[] = {"Foo::f(int)", "Foo::f(double)", "Foo::g()", "int Foo::h<int>(int)"};
	const char *want[] = {"Foo::f(int)", "Foo::f(double)", "Foo::g", "Foo::h<\u2026>"};
	CHECK_SET(names, want);
}

static void set_template_arguments(void **state)
{
	(void)state;
	const char *names[] = {
		"Box<int>::get()",
		"Box<double>::get()",
		"std::map<int, long, std::less<int>, std::allocator<std::pair<int const, long> > >::find(int const&)",
		("std::map<long, long, std::less<long>, std::allocator<std::pair<long const, long> > >::find(long "
		 "const&)"),
		/* differ one level down: the argument's own group */
		"Wrap<ns::Vec<char>, int>::run()",
		"Wrap<ns::Vec<short>, int>::run()",
	};
	const char *want[] = {
		"Box<int>::get",
		"Box<double>::get",
		"std::map<int, \u2026>::find",
		"std::map<long, \u2026>::find",
		"Wrap<Vec<char>, \u2026>::run",
		"Wrap<Vec<short>, \u2026>::run",
	};
	CHECK_SET(names, want);
}

/* A template instantiated for hundreds of types: a run longer than the
 * reader compares pairwise (each is told apart from one other name). */
static void set_large_run(void **state)
{
	(void)state;
	enum {
		N = 300
	};
	char *names[N], *want[N];
	for (int i = 0; i < N; i++) {
		assert_true(asprintf(&names[i], "ns::Box<ns::T%d, std::allocator<ns::T%d> >::get() const", i, i) > 0);
		assert_true(asprintf(&want[i], "ns::Box<T%d, \u2026>::get", i) > 0);
	}
	check_set((const char *const *)names, (const char *const *)want, N);
	for (int i = 0; i < N; i++) {
		free(names[i]);
		free(want[i]);
	}
}

static void set_real_nlohmann(void **state)
{
	(void)state;
	/* json (std::map) and ordered_json: the same methods, one template
	 * argument apart */
	const char *names[] = {assert_map, destroy_map, assert_ordered, destroy_ordered};
	const char *want[] = {
		"nlohmann::basic_json<map, \u2026>::assert_invariant",
		"nlohmann::basic_json<map, \u2026>::json_value::destroy",
		"nlohmann::basic_json<ordered_map, \u2026>::assert_invariant",
		"nlohmann::basic_json<ordered_map, \u2026>::json_value::destroy",
	};
	CHECK_SET(names, want);
}

static void set_numbered(void **state)
{
	(void)state;
	/* three levels down: neither arguments nor parameters tell */
	const char *names[] = {"Box<A<B<long> > >::get()", "Box<A<B<int> > >::get()", "Box<A<B<int> > >::put()"};
	const char *want[] = {"Box<A<\u2026>>::get() #2", "Box<A<\u2026>>::get() #1", "Box<\u2026>::put"};
	CHECK_SET(names, want);
	/* alike for longer than the maximum: the number fits within it */
	const char *longer[] = {
		"a123456789::b123456789::c123456789::d123456789::e123456789::f123456789::g123456789::h123456789::"
		"x1::method(int)",
		"a123456789::b123456789::c123456789::d123456789::e123456789::f123456789::g123456789::h123456789::"
		"x2::method(int)",
	};
	check_set(longer, NULL, 2);
}

static void set_equal_names(void **state)
{
	(void)state;
	/* two static functions of one name: their files tell them apart */
	const char *names[] = {"helper", "main", "helper", "ns::f(int)", "ns::f(int)"};
	const char *want[] = {"helper", "main", "helper", "ns::f", "ns::f"};
	CHECK_SET(names, want);
}

static void set_of_single_table(void **state)
{
	(void)state;
	size_t n = sizeof(single) / sizeof(single[0]);
	const char **names = calloc(n, sizeof(*names));
	assert_non_null(names);
	for (size_t i = 0; i < n; i++)
		names[i] = single[i].in;
	check_set(names, NULL, n);
	free(names);
}

/* The stride: a field of an array of structs. */
static void set_in_structs(void **state)
{
	(void)state;
	struct fn {
		const char *name;
		int other;
		char *shown;
	} f[] = {{"Foo::f(int)", 1, NULL}, {"Foo::f(long)", 2, NULL}, {"bar()", 3, NULL}};
	assert_int_equal(xl_short_names(&f[0].name, &f[0].shown, 3, sizeof(f[0])), XL_OK);
	assert_string_equal(f[0].shown, "Foo::f(int)");
	assert_string_equal(f[1].shown, "Foo::f(long)");
	assert_string_equal(f[2].shown, "bar");
	assert_int_equal(f[1].other, 2);
	for (int i = 0; i < 3; i++)
		free(f[i].shown);
	assert_int_equal(xl_short_names(NULL, NULL, 0, sizeof(char *)), XL_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(single_names),           cmocka_unit_test(with_params),
		cmocka_unit_test(real_nlohmann_names),    cmocka_unit_test(set_overloads),
		cmocka_unit_test(set_template_arguments), cmocka_unit_test(set_real_nlohmann),
		cmocka_unit_test(set_numbered),           cmocka_unit_test(set_equal_names),
		cmocka_unit_test(set_large_run),          cmocka_unit_test(set_of_single_table),
		cmocka_unit_test(set_in_structs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
