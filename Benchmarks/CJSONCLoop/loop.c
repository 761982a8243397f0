#define _GNU_SOURCE
#include "CJSONCLoop.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

int64_t cjsonc_parse_lines(const char *path) {
  FILE *file = fopen(path, "r");
  if (!file) return -1;
  json_tokener *tokener = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
  json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  int64_t parsed = 0;
  while ((length = getline(&line, &capacity, file)) > 0) {
    json_tokener_reset(tokener);
    json_object *object = json_tokener_parse_ex(tokener, line, (int)length);
    if (object) {
      parsed++;
      json_object_put(object);
    }
  }
  free(line);
  json_tokener_free(tokener);
  fclose(file);
  return parsed;
}
