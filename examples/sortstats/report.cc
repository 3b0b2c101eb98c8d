// The report line, written with iostreams (the project's C++ part).
#include <iomanip>
#include <iostream>

#include "stats.h"

extern "C" void write_report(long n, double avg, long p50, long p99)
{
	std::cout << n << " samples: mean " << std::fixed << std::setprecision(1) << avg << ", p50 " << p50
		  << ", p99 " << p99 << "\n";
}
