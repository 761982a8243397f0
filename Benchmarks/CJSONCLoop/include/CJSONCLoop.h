#ifndef CREASE_CJSONCLOOP_H
#define CREASE_CJSONCLOOP_H

#include <stdint.h>

/// Parses every line of the file at `path` with one reused json-c tokener and frees each
/// object: the bare parse loop replay is compared with. Returns the number of objects parsed,
/// or -1 when the file cannot be read.
int64_t cjsonc_parse_lines(const char *path);

#endif
