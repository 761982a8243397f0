#ifndef CREASE_CJSONC_SHIM_H
#define CREASE_CJSONC_SHIM_H
#include <json-c/json.h>
#endif
