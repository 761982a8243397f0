#ifndef CREASE_CJSONC_SHIM_H
#define CREASE_CJSONC_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <json-c/json.h>
#include <locale.h>
#include <stdlib.h>

/// strtod in the C locale, whatever the process's: how json-c reads a JSON number, without its
/// switch of locale around every parse. The locale is made once.
static inline double crease_strtod_c(const char *text) {
  static locale_t c_locale;
  if (!c_locale) c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  return strtod_l(text, NULL, c_locale);
}
#endif
