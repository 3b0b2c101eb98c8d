/*
 * xl_errors.c - messages of the error vocabulary (xl_errors.h).
 */
#include "xl_errors.h"

const char *xl_error_message(int code)
{
	switch (code) {
#define XL_ERROR_CASE(name, value, message) \
	case (value): return (message);
		XL_ERRORS(XL_ERROR_CASE)
#undef XL_ERROR_CASE
	}
	return "unknown error";
}
