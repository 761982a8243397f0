#ifndef CREASE_CJSONC_SHIM_H
#define CREASE_CJSONC_SHIM_H
#include <json-c/json.h>
#include <locale.h>
#include <stdlib.h>

// glibc's strtod_l, declared here rather than through _GNU_SOURCE, which would make this module's
// view of the C headers differ from Swift's Glibc module.
extern double strtod_l(const char *text, char **end, locale_t locale);

/// strtod in the C locale, whatever the process's: how json-c reads a JSON number, without its
/// switch of locale around every parse. The locale is made once (threads that race to make it
/// each get a valid one; at most a spare is left).
static inline double crease_strtod_c(const char *text) {
  static locale_t c_locale;
  locale_t locale = __atomic_load_n(&c_locale, __ATOMIC_ACQUIRE);
  if (!locale) {
    locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    __atomic_store_n(&c_locale, locale, __ATOMIC_RELEASE);
  }
  return strtod_l(text, NULL, locale);
}
#endif
