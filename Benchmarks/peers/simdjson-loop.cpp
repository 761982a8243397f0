// The simdjson peer: On-Demand parse of every line of a JSON Lines file, touching each line's
// "t" and "kind" so the parse is not skipped. Built by crease-bench when libsimdjson-dev is there.
#include <simdjson.h>
#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2) return 64;
  simdjson::padded_string text;
  if (simdjson::padded_string::load(argv[1]).get(text)) return 66;
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document_stream stream;
  if (parser.iterate_many(text, 1 << 20).get(stream)) return 65;
  long lines = 0;
  unsigned long long sum = 0;
  for (auto document : stream) {
    simdjson::ondemand::object object;
    if (document.get_object().get(object)) return 65;
    for (auto field : object) {
      std::string_view key;
      if (field.unescaped_key().get(key)) return 65;
      if (key == "t") {
        uint64_t t = 0;
        if (!field.value().get_uint64().get(t)) sum += t;
      }
    }
    lines++;
  }
  std::printf("%ld %llu\n", lines, sum);
  return 0;
}
