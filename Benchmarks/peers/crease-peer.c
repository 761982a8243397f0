// crease-peer: the work of `crease replay` on a binary trace, as a single-threaded C program
// written for speed, to say how far Crease is from what the machine does with the same rules.
//
// It reads binary trace version 2 (Docs/BinaryTraceFormat.md), orders events in the reorder
// window (SPEC 4.1, with the engine's buffer limits and its rule for late events), fires timers
// in trace time, and runs every rule of SPEC 4 under the default configuration: the hinge stage
// (launch delivery, availability, status debounce with a maximum wait, the `flat` boundary,
// motion and settle, progress) and the camera stage (frame gaps with held-gap confirmation, the
// rate estimate and its changes, causes and reasons, early deltas, stalls, regressions, runs
// ended by a session stop or a stream's end; direction, mirroring, mask, accessory). It writes
// the cue lines `crease replay` writes, byte for byte, and keeps no limit Crease lacks: streams,
// names, pending drops, the reorder buffer and timers grow as Crease's do, to Crease's bounds.
// It is not Crease: a bad record stops it, it reads one file, and it takes no options.
//
// `make bench` builds it with `cc -O2`, checks its cue lines against crease's on the bench
// trace and on every bundled trace, runs it under callgrind beside Crease, and prints its
// instructions an event and Crease's ratio to it. The `// MARK:` sections name the parts of the
// benchmark's table (decoding, engine, stages, cues, reading): each source line's instructions
// go to its section's part.
//
// What makes it fast: the file is mapped, not read; an event is decoded straight into its
// slot of the reorder ring; a stream's name is numbered once, by the file's name table, so no
// event hashes a name; timers sit in a heap indexed by a dense tag (a stream's two timers by
// its number), with the earliest due time read from the heap's root; integers are written two
// digits a step into the output buffer, and a cue's `since` reuses its `t` digits when equal.
//
// Usage: crease-peer TRACE.crtrace   (cue lines on standard output)

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// MARK: Configuration (SPEC 4, the defaults; Crease's bounds)

#define REORDER_WINDOW 50000000LL
#define BUFFER_LIMIT 100000
#define BUFFER_BYTES (64LL << 20)
#define DEBOUNCE 50000000LL
#define MAX_WAIT 150000000LL
#define FLAT_BELOW 135.0
#define FLAT_ABOVE 145.0
#define DEADBAND 7.5
#define FULLY_OPEN_ZONE 15.0
#define SETTLE 300000000LL
#define SETTLE_TOLERANCE 1.0
#define PROGRESS_FULL 165.0
#define PROGRESS_INTERVAL 16666666LL  // 1/60 s in whole ns, truncated
#define GAP_FACTOR 1.5
#define STALL_FACTOR 3.0
#define SWITCH_WINDOW 250000000LL
#define MASK_MAX 500000000LL
#define CADENCE_WINDOW 15
#define CADENCE_MINIMUM 3
#define MAXIMUM_HELD_DROPS 4096
#define MAXIMUM_EARLY_DELTAS 64
#define NAME_TABLE_LIMIT 100000  // the file's name table, as the stream budget
#define NAME_TABLE_BYTES (32LL << 20)
#define MAXIMUM_STREAMS 100000
#define MAXIMUM_STREAM_NAME_BYTES (32LL << 20)

static void fail(const char *message) {
  fprintf(stderr, "crease-peer: %s\n", message);
  exit(1);
}

static void *grow(void *memory, size_t *capacity, size_t element, size_t needed) {
  if (needed <= *capacity) return memory;
  size_t larger = *capacity ? *capacity : 16;
  while (larger < needed) larger *= 2;
  memory = realloc(memory, larger * element);
  if (!memory) fail("out of memory");
  *capacity = larger;
  return memory;
}

// Trace time saturates at the ends of the range, as Crease's `Nanoseconds` does.
static inline int64_t add_time(int64_t a, int64_t b) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

static inline int64_t subtract_time(int64_t a, int64_t b) {
  int64_t difference;
  if (__builtin_sub_overflow(a, b, &difference)) return b > 0 ? INT64_MIN : INT64_MAX;
  return difference;
}

// Rounded to the nearest, a tie away from zero, saturating; NaN is the largest.
static inline int64_t round_time(double value) {
  double rounded = round(value);
  if (rounded >= 9.223372036854775807e18 || isnan(rounded)) return INT64_MAX;
  if (rounded <= -9.223372036854775807e18) return INT64_MIN;
  return (int64_t)rounded;
}

// MARK: Cues: writing the lines

static char output[1 << 16];
static size_t used;

static void flush_output(void) {
  if (used > 0 && fwrite(output, 1, used, stdout) != used) fail("cannot write");
  used = 0;
}

// Room for `count` more bytes; every write below asks first, so none runs past the buffer.
static inline char *room(size_t count) {
  if (used + count > sizeof output) {
    flush_output();
    if (count > sizeof output) fail("a cue line longer than the output buffer");
  }
  return output + used;
}

static inline void put(const void *bytes, size_t count) {
  memcpy(room(count), bytes, count);
  used += count;
}

#define PUT(literal) put(literal, sizeof(literal) - 1)

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t powers_of_ten[20] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
  10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
  1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
  10000000000000000000ULL,
};

// Writes `magnitude`'s digits in place, two a step from the end: its length is known first.
static inline void put_digits(uint64_t magnitude) {
  int length = 1;
  while (length < 20 && magnitude >= powers_of_ten[length]) length++;
  char *end = room((size_t)length) + length;
  while (magnitude >= 100) {
    end -= 2;
    memcpy(end, digit_pairs + magnitude % 100 * 2, 2);
    magnitude /= 100;
  }
  if (magnitude >= 10) {
    memcpy(end - 2, digit_pairs + magnitude * 2, 2);
  } else {
    end[-1] = (char)('0' + magnitude);
  }
  used += (size_t)length;
}

static inline void put_integer(int64_t value) {
  if (value < 0) PUT("-");
  put_digits(value < 0 ? 0 - (uint64_t)value : (uint64_t)value);
}

// A decimal as Crease writes one: rounded to thousandths (a tie away from zero), at least one
// decimal, no trailing zeros; past 64-bit thousandths, the shortest form that reads back.
static void put_decimal(double value) {
  double scaled = round(value * 1000);
  if (!(scaled >= -9223372036854775808.0 && scaled < 9223372036854775808.0)) {  // not an Int64
    // Swift's `description`: the fewest digits that read back, in exponent form this far out.
    char text[32];
    for (int digits = 0; digits < 17; digits++) {
      snprintf(text, sizeof text, "%.*e", digits, value);
      if (strtod(text, NULL) == value) break;
    }
    put(text, strlen(text));
    return;
  }
  int64_t thousandths = (int64_t)scaled;
  uint64_t magnitude = thousandths < 0 ? 0 - (uint64_t)thousandths : (uint64_t)thousandths;
  if (thousandths < 0) PUT("-");
  put_digits(magnitude / 1000);
  unsigned fraction = (unsigned)(magnitude % 1000);
  char text[4] = {'.', (char)('0' + fraction / 100), (char)('0' + fraction / 10 % 10), (char)('0' + fraction % 10)};
  size_t length = 4;
  while (length > 2 && text[length - 1] == '0') length--;
  put(text, length);
}

// A JSON string: names and labels need no escape nearly always, and then go in at once.
static void put_string(const uint8_t *bytes, uint32_t length) {
  PUT("\"");
  uint32_t plain = 0;
  while (plain < length && bytes[plain] >= 0x20 && bytes[plain] != '"' && bytes[plain] != '\\') plain++;
  put(bytes, plain);
  for (uint32_t index = plain; index < length; index++) {
    uint8_t byte = bytes[index];
    switch (byte) {
    case '"': PUT("\\\""); break;
    case '\\': PUT("\\\\"); break;
    case '\n': PUT("\\n"); break;
    case '\r': PUT("\\r"); break;
    case '\t': PUT("\\t"); break;
    default:
      if (byte < 0x20) {
        char escape[6] = {'\\', 'u', '0', '0', "0123456789abcdef"[byte >> 4], "0123456789abcdef"[byte & 15]};
        put(escape, 6);
      } else {
        put(&byte, 1);
      }
    }
  }
  PUT("\"");
}

enum cue_kind {
  CUE_HINGE_INITIAL, CUE_HINGE_AVAILABLE, CUE_HINGE_UNAVAILABLE, CUE_HINGE_STATUS, CUE_REGIONS_CHANGED,
  CUE_HINGE_THRESHOLD, CUE_HINGE_MOTION, CUE_HINGE_SETTLED, CUE_HINGE_PROGRESS, CUE_CAMERA_GAP, CUE_CAMERA_STALL,
  CUE_CAMERA_PTS_REGRESSION, CUE_CAMERA_DIRECTION, CUE_CAMERA_MIRRORING, CUE_CAMERA_MASK, CUE_ACCESSORY_ELIGIBLE,
  CUE_MARK, CUE_KINDS
};

// Each kind's line up to its fields, after `since`'s digits.
static const char *const cue_openings[CUE_KINDS] = {
  ",\"cue\":\"hinge.initial\"", ",\"cue\":\"hinge.available\"", ",\"cue\":\"hinge.unavailable\"",
  ",\"cue\":\"hinge.status\"", ",\"cue\":\"regions.changed\"", ",\"cue\":\"hinge.threshold\"",
  ",\"cue\":\"hinge.motion\"", ",\"cue\":\"hinge.settled\"", ",\"cue\":\"hinge.progress\"",
  ",\"cue\":\"camera.gap\"", ",\"cue\":\"camera.stall\"", ",\"cue\":\"camera.ptsRegression\"",
  ",\"cue\":\"camera.direction\"", ",\"cue\":\"camera.mirroring\"", ",\"cue\":\"camera.mask\"",
  ",\"cue\":\"accessory.eligible\"", ",\"cue\":\"mark\"",
};
static size_t cue_opening_lengths[CUE_KINDS];

static int64_t now;  // trace time: the event or timer being processed

static void begin_cue(enum cue_kind kind, int64_t since) {
  // Room for the opening's longest, so nothing is flushed between `t`'s digits and their copy.
  room(64);
  PUT("{\"t\":");
  size_t digits = used;
  put_integer(now);
  size_t length = used - digits;
  PUT(",\"since\":");
  if (since == now) {  // most cues reflect the input of their own time: its digits again
    memcpy(output + used, output + digits, length);
    used += length;
  } else {
    put_integer(since);
  }
  put(cue_openings[kind], cue_opening_lengths[kind]);
}

static inline void end_cue(void) { PUT("}\n"); }

static const char *const status_names[] = {"\"closed\"", "\"partiallyOpen\"", "\"fullyOpen\"", "\"unknown\""};
static const char *const camera_names[] = {"\"outerFront\"", "\"innerFront\"", "\"virtualFront\"",
                                           "\"backWide\"", "\"backUltraWide\"", "\"backTelephoto\""};
static const char *const reason_names[] = {"\"frameWasLate\"", "\"outOfBuffers\"", "\"discontinuity\""};

static inline void put_name(const char *quoted) { put(quoted, strlen(quoted)); }

static void angle_field(double angle) {
  PUT(",\"angle\":");
  put_decimal(angle);
}

// MARK: Events

enum event_kind { HEADER, HINGE, FRAME, DROP, INPUT, DIRECTION, DISPLAY, APP, SESSION, MARK, END, STREAM_END };
enum status { CLOSED, PARTIALLY_OPEN, FULLY_OPEN, UNKNOWN };
enum camera { NO_CAMERA = -1, OUTER_FRONT, INNER_FRONT, VIRTUAL_FRONT, BACK_WIDE, BACK_ULTRA_WIDE, BACK_TELEPHOTO };
#define INNER_FRONT_LISTED_FIRST 0x80

static inline int is_front(int camera) { return camera >= OUTER_FRONT && camera <= VIRTUAL_FRONT; }

// A plain record in the reorder ring; a label points into the mapped file. The kind byte keeps
// the small fields the format packs in its high bits (status, camera, reason, display, ...).
struct event {
  int64_t t;
  uint64_t sequence;
  int64_t pts;
  double angle;            // degrees
  const uint8_t *label;
  uint32_t text_bytes;     // the bytes of the event's name or label, as the engine counts them
  uint32_t name;           // the stream's or view's name number (below)
  uint8_t kind, fields, toward, away;
};

// Every distinct name of the file (stream or view), numbered as first met. The file's name
// table gives most events their number without hashing; a name spelled out is found by its text.
struct name {
  const uint8_t *bytes;
  uint32_t length;
  int32_t stream;  // the camera stage's stream, -1 none yet, -2 refused by the stream budget
  double declared_fps;
  uint8_t is_main;
};
static struct name *names;
static size_t name_count, name_capacity;
static uint32_t *name_slots;  // open addressing by the text's hash: name number + 1, 0 free
static size_t name_slot_count;

static uint64_t hash_bytes(const uint8_t *bytes, uint32_t length) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (uint32_t index = 0; index < length; index++) hash = (hash ^ bytes[index]) * 0x100000001b3ULL;
  return hash;
}

static uint32_t intern(const uint8_t *bytes, uint32_t length) {
  if (name_count * 2 >= name_slot_count) {
    size_t count = name_slot_count ? name_slot_count * 2 : 64;
    uint32_t *slots = calloc(count, sizeof *slots);
    if (!slots) fail("out of memory");
    for (size_t number = 0; number < name_count; number++) {
      size_t slot = hash_bytes(names[number].bytes, names[number].length) & (count - 1);
      while (slots[slot]) slot = (slot + 1) & (count - 1);
      slots[slot] = (uint32_t)number + 1;
    }
    free(name_slots);
    name_slots = slots;
    name_slot_count = count;
  }
  size_t slot = hash_bytes(bytes, length) & (name_slot_count - 1);
  for (; name_slots[slot]; slot = (slot + 1) & (name_slot_count - 1)) {
    struct name *name = &names[name_slots[slot] - 1];
    if (name->length == length && memcmp(name->bytes, bytes, length) == 0) return name_slots[slot] - 1;
  }
  names = grow(names, &name_capacity, sizeof *names, name_count + 1);
  names[name_count] = (struct name){bytes, length, -1, 0, length == 4 && memcmp(bytes, "main", 4) == 0};
  name_slots[slot] = (uint32_t)name_count + 1;
  return (uint32_t)name_count++;
}

// MARK: Decoding binary version 2

static const uint8_t *cursor, *file_end;
static uint32_t file_names[NAME_TABLE_LIMIT];  // the file's name table: name numbers
static uint32_t file_name_count;
static int64_t file_name_bytes;
static int64_t previous_t;
static void camera_declare(uint32_t name, double fps);

// A varint near the end of the file, checked byte by byte.
static uint64_t varint_at_end(void) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (cursor >= file_end) fail("a record ends inside a number");
    uint8_t byte = *cursor++;
    value |= (uint64_t)(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  fail("a number longer than 64 bits");
  return 0;
}

// A varint, unrolled: away from the end of the file its ten bytes at most need no check.
static inline uint64_t varint(void) {
  if (__builtin_expect(file_end - cursor < 10, 0)) return varint_at_end();
  const uint8_t *bytes = cursor;
  uint64_t value = bytes[0];
  if (value < 0x80) {
    cursor += 1;
    return value;
  }
  value &= 0x7F;
  for (int index = 1; index < 10; index++) {
    uint64_t byte = bytes[index];
    value |= (byte & 0x7F) << (7 * index);
    if (byte < 0x80) {
      cursor += index + 1;
      return value;
    }
  }
  fail("a number longer than 64 bits");
  return 0;
}

static inline int64_t zigzag(void) {
  uint64_t code = varint();
  return (int64_t)(code >> 1) ^ -(int64_t)(code & 1);
}

static inline const uint8_t *string_field(uint32_t *length) {
  uint64_t count = varint();
  if (count > (uint64_t)(file_end - cursor)) fail("a string past the end of the file");
  const uint8_t *bytes = cursor;
  cursor += count;
  *length = (uint32_t)count;
  return bytes;
}

// A name: its number in the file's table, or spelled out (joining the table while it has room).
static inline uint32_t name_field(void) {
  uint64_t number = varint();
  if (number > 0) {
    if (number > file_name_count) fail("a name number the table does not have");
    return file_names[number - 1];
  }
  uint32_t length;
  const uint8_t *bytes = string_field(&length);
  uint32_t name = intern(bytes, length);
  if (file_name_count < NAME_TABLE_LIMIT && length <= NAME_TABLE_BYTES - file_name_bytes) {
    file_names[file_name_count++] = name;
    file_name_bytes += length;
  }
  return name;
}

// A CMTime in nanoseconds, rounded toward negative infinity.
static inline int64_t pts_field(int in_nanoseconds) {
  int64_t value = zigzag();
  if (in_nanoseconds) return value;
  int64_t timescale = (int64_t)varint();
  if (timescale <= 0 || timescale > INT32_MAX) fail("a timescale out of range");
  __int128 scaled = (__int128)value * 1000000000;
  __int128 quotient = scaled / timescale;
  if (scaled % timescale != 0 && scaled < 0) quotient -= 1;
  if (quotient > INT64_MAX || quotient < INT64_MIN) fail("a pts past 64-bit nanoseconds");
  return (int64_t)quotient;
}

static void header(void) {
  varint();  // version
  for (int field = 0; field < 2; field++) {  // device, os
    if (cursor >= file_end) fail("a header ends early");
    if (*cursor++) {
      uint32_t length;
      string_field(&length);
    }
  }
  uint64_t streams = varint();
  for (uint64_t index = 0; index < streams; index++) {
    uint32_t length;
    const uint8_t *name = string_field(&length);
    if (file_end - cursor < 8) fail("a header ends early");
    double fps;
    memcpy(&fps, cursor, 8);
    cursor += 8;
    camera_declare(intern(name, length), fps);
  }
}

// Decodes the next event into `event`; 0 at the end of the file. A header is applied as read.
static int next_event(struct event *event) {
  while (cursor < file_end) {
    uint64_t length = varint();
    if (length == 0 || length > (uint64_t)(file_end - cursor)) fail("a record past the end of the file");
    const uint8_t *record_end = cursor + length;
    uint8_t tag = *cursor++;
    uint8_t kind = tag & 0x0F;
    if (kind == HEADER) {
      header();
      if (cursor != record_end) fail("a header with bytes left over");
      continue;
    }
    previous_t += zigzag();
    if (previous_t < 0) fail("a negative t");
    event->t = previous_t;
    event->kind = kind;
    event->fields = tag >> 4;
    event->text_bytes = 0;
    switch (kind) {
    case HINGE:
      if (tag & 0x30) {
        if (record_end - cursor < 8) fail("a hinge record cut short");
        memcpy(&event->angle, cursor, 8);
        cursor += 8;
        if ((tag & 0x30) == 0x20) event->angle *= 180 / M_PI;
      }
      break;
    case FRAME:
    case DROP:
      event->name = name_field();
      event->text_bytes = names[event->name].length;
      event->pts = pts_field(tag >> 7);
      break;
    case INPUT:
    case STREAM_END:
      event->name = name_field();
      event->text_bytes = names[event->name].length;
      break;
    case DIRECTION:
      event->name = name_field();
      event->text_bytes = names[event->name].length;
      if (record_end - cursor < 2) fail("a direction record cut short");
      event->toward = cursor[0];
      event->away = cursor[1];
      cursor += 2;
      break;
    case MARK:
      event->label = string_field(&event->text_bytes);
      break;
    case DISPLAY:
    case APP:
    case SESSION:
    case END:
      break;
    default:
      fail("an unknown record kind");
    }
    if (cursor != record_end) fail("a record with bytes left over, or cut short");
    return 1;
  }
  return 0;
}

// MARK: Engine: timers in a heap by (due, order set), each found by its dense tag

// Tags: the hinge's three, then a stall and a mask timer for each stream, by its number.
enum { TIMER_DEBOUNCE, TIMER_SETTLE, TIMER_PROGRESS, TIMER_STREAMS };
static inline uint32_t stall_tag(int32_t stream) { return TIMER_STREAMS + 2 * (uint32_t)stream; }
static inline uint32_t mask_tag(int32_t stream) { return TIMER_STREAMS + 2 * (uint32_t)stream + 1; }

struct timer {
  int64_t due;
  uint64_t order;
  uint32_t tag;
};
static struct timer *heap;
static size_t heap_count, heap_capacity;
static int32_t *heap_place;  // by tag: the timer's index in the heap, -1 when not set
static size_t place_capacity;
static uint64_t timer_order;

static inline int fires_before(const struct timer *a, const struct timer *b) {
  return a->due < b->due || (a->due == b->due && a->order < b->order);
}

static inline void heap_put(size_t index, struct timer timer) {
  heap[index] = timer;
  heap_place[timer.tag] = (int32_t)index;
}

static void sift_up(size_t index) {
  struct timer timer = heap[index];
  while (index > 0 && fires_before(&timer, &heap[(index - 1) / 2])) {
    heap_put(index, heap[(index - 1) / 2]);
    index = (index - 1) / 2;
  }
  heap_put(index, timer);
}

static void sift_down(size_t index) {
  struct timer timer = heap[index];
  for (;;) {
    size_t child = 2 * index + 1;
    if (child >= heap_count) break;
    if (child + 1 < heap_count && fires_before(&heap[child + 1], &heap[child])) child++;
    if (!fires_before(&heap[child], &timer)) break;
    heap_put(index, heap[child]);
    index = child;
  }
  heap_put(index, timer);
}

static void reserve_tags(size_t tags) {
  size_t before = place_capacity;
  heap_place = grow(heap_place, &place_capacity, sizeof *heap_place, tags);
  for (size_t tag = before; tag < place_capacity; tag++) heap_place[tag] = -1;
}

// Sets (or re-sets) the timer `tag` due at `due`: it fires after every timer set before it
// for the same time.
static void schedule(uint32_t tag, int64_t due) {
  struct timer timer = {due, timer_order++, tag};
  int32_t place = heap_place[tag];
  if (place < 0) {
    heap = grow(heap, &heap_capacity, sizeof *heap, heap_count + 1);
    heap_put(heap_count++, timer);
    sift_up(heap_count - 1);
    return;
  }
  int later = fires_before(&heap[place], &timer);
  heap_put((size_t)place, timer);
  if (later) sift_down((size_t)place); else sift_up((size_t)place);
}

static void remove_at(size_t index) {
  heap_place[heap[index].tag] = -1;
  if (--heap_count == index) return;
  struct timer last = heap[heap_count];
  int earlier = fires_before(&last, &heap[index]);
  heap_put(index, last);
  if (earlier) sift_up(index); else sift_down(index);
}

static inline void cancel(uint32_t tag) {
  if (heap_place[tag] >= 0) remove_at((size_t)heap_place[tag]);
}

// MARK: Stages: the camera stage's streams and state (the events come further down)

struct finding {
  int64_t from, to, since, missing;
  uint8_t regression, cause;  // cause: CAUSE_*
  int8_t reason;              // -1 none
};
enum { CAUSE_CAMERA_SWITCH, CAUSE_REPORTED_DROP, CAUSE_UNEXPLAINED };
static const char *const cause_fields[] = {",\"cause\":\"cameraSwitch\"", ",\"cause\":\"reportedDrop\"",
                                           ",\"cause\":\"unexplained\""};

struct frame_mark {
  int64_t t, pts;
  int8_t camera;
};

struct early_delta {
  struct frame_mark from, to;
  uint8_t bridged, cause;
  int8_t reason;
};

struct drop_report {
  int64_t pts;
  int8_t reason;  // -1 none given
};

enum stall_state { STALL_WATCHING, STALL_SILENT, STALL_ENDED };

struct stream {
  uint32_t name;
  // Frame gaps (SPEC 4.6).
  uint8_t running, has_nominal, declared, has_held, has_faster;
  struct frame_mark last;
  double nominal;                                  // ns, exact
  int64_t gap_threshold, faster_threshold, stall_delay, nominal_rounded;  // from `nominal`
  int64_t cadence_deltas[CADENCE_WINDOW], cadence_sorted[CADENCE_WINDOW];
  int cadence_count, cadence_next;
  struct finding held;
  int64_t held_delta, faster_delta;
  int held_alike;
  struct drop_report *drops;
  size_t drop_count, drop_capacity;
  struct early_delta early[MAXIMUM_EARLY_DELTAS];
  int early_count;
  // Direction and mirroring (SPEC 4.7): -1 for none.
  int8_t input, constituent, direction_camera, direction_user, mirroring_camera, mirroring_value;
  // Mask (SPEC 4.8) and stall.
  uint8_t mask_on, stall_state;
  int8_t mask_camera;
  int64_t mask_time, stall_since, latest_input;
  uint8_t has_latest_input;
};
static struct stream *streams;
static size_t stream_count, stream_capacity;
static int64_t stream_name_bytes;

// The direction maps: the main view's update, and the other view's while only one is seen.
struct direction_map {
  uint8_t set, toward, away;
  uint32_t view;
};
static struct direction_map main_map, other_map;
static int several_other_views;

static inline const struct direction_map *current_map(void) {
  if (main_map.set) return &main_map;
  return other_map.set && !several_other_views ? &other_map : NULL;
}

// 1 toward the person, 0 away, -1 unknown.
static inline int facing_of(int camera) {
  const struct direction_map *map = current_map();
  if (!map) return -1;
  if (map->toward & (1 << camera)) return 1;
  if (map->away & (1 << camera)) return 0;
  return -1;
}

static inline int front_camera_toward_user(void) {
  const struct direction_map *map = current_map();
  if (!map) return NO_CAMERA;
  if ((map->toward & (1 << OUTER_FRONT)) && !(map->toward & INNER_FRONT_LISTED_FIRST)) return OUTER_FRONT;
  return map->toward & (1 << INNER_FRONT) ? INNER_FRONT : NO_CAMERA;
}

static int64_t latest_display_event = INT64_MIN, latest_closed_change = INT64_MIN;
static int has_display_event, has_closed_change;
static int display_known, display_outer;
static int session_known, session_running;

// Accessory eligibility (SPEC 4.9): the conditions, and the last value reported (-1 none).
static int foreground, accessory_running, preview_visible, inner_full_screen;
static int committed_known;
static enum status accessory_committed;
static int reported_eligible = -1;

// MARK: Stages: hinge

enum availability { AWAITING_LAUNCH, AVAILABLE, UNAVAILABLE };
static enum availability availability;
enum debounce_state { DEBOUNCE_AWAITING, DEBOUNCE_COMMITTED, DEBOUNCE_WINDOW };
static enum debounce_state debounce_state;
static enum status committed, window_committed, window_latest;
static int64_t window_since, window_deadline;
static int side_known, side_above;
enum motion_state { AWAITING_FIRST, RESTING, MOVING };
static enum motion_state motion_state;
static double baseline, extreme, latest_angle, arm_angle;
static int opening;
static int64_t arm_time;
static int progress_sent;
static int64_t progress_sent_thousandths, progress_sent_t;
static int progress_waiting;
static double progress_pending;
static int64_t progress_pending_since;

// What a hinge event or timer tells the camera stage.
enum change_kind { NO_CHANGE, CHANGE_INITIAL, CHANGE_LOST, CHANGE_COMMITTED };
struct status_change {
  enum change_kind kind;
  enum status from, to;
  int64_t since;
};
static void camera_hinge_changed(struct status_change change);

static inline int64_t thousandths(double value) { return (int64_t)round(value * 1000); }
static inline double progress_value(double angle) { return fmin(fmax(angle / PROGRESS_FULL, 0), 1); }
static inline int in_zone(double angle) { return fabs(180 - angle) < FULLY_OPEN_ZONE; }
static inline int differs_from_sent(double value) {
  return !progress_sent || thousandths(value) != progress_sent_thousandths;
}

static void emit_progress(double value, int64_t since) {
  progress_sent = 1;
  progress_sent_thousandths = thousandths(value);
  progress_sent_t = now;
  begin_cue(CUE_HINGE_PROGRESS, since);
  PUT(",\"value\":");
  put_decimal(value);
  end_cue();
}

static void motion_cue(double angle) {
  begin_cue(CUE_HINGE_MOTION, now);
  if (opening) PUT(",\"phase\":\"opening\""); else PUT(",\"phase\":\"closing\"");
  angle_field(angle);
  end_cue();
}

// The hinge came to rest: the final progress, then the settle (SPEC 4.4, 4.5).
static void settle(double angle, const char *zone_field, int64_t since) {
  cancel(TIMER_SETTLE);
  cancel(TIMER_PROGRESS);
  progress_waiting = 0;
  double value = progress_value(angle);
  if (differs_from_sent(value)) emit_progress(value, since);
  begin_cue(CUE_HINGE_SETTLED, since);
  angle_field(angle);
  put(zone_field, strlen(zone_field));
  end_cue();
  motion_state = RESTING;
  baseline = angle;
}

static const char *zone_field_of(double angle) {
  if (in_zone(angle)) return ",\"zone\":\"fullyOpen\"";
  return angle < DEADBAND ? ",\"zone\":\"closed\"" : ",\"zone\":\"half\"";
}

static struct status_change become_unavailable(void) {
  struct status_change change = {NO_CHANGE, 0, 0, 0};
  if (availability == UNAVAILABLE) return change;
  availability = UNAVAILABLE;
  begin_cue(CUE_HINGE_UNAVAILABLE, now);
  end_cue();
  cancel(TIMER_DEBOUNCE);
  cancel(TIMER_SETTLE);
  cancel(TIMER_PROGRESS);
  debounce_state = DEBOUNCE_AWAITING;
  side_known = 0;
  motion_state = AWAITING_FIRST;
  progress_sent = 0;
  progress_waiting = 0;
  change.kind = CHANGE_LOST;
  return change;
}

static inline void arm_debounce(void) {
  int64_t quiet = add_time(now, DEBOUNCE);
  schedule(TIMER_DEBOUNCE, quiet < window_deadline ? quiet : window_deadline);
}

static struct status_change hinge(const struct event *event) {
  struct status_change change = {NO_CHANGE, 0, 0, 0};
  if (!(event->fields & 3)) return become_unavailable();
  double angle = event->angle;
  enum status status = event->fields >> 2;
  switch (debounce_state) {
  case DEBOUNCE_AWAITING:
    debounce_state = DEBOUNCE_COMMITTED;
    committed = status;
    change.kind = CHANGE_INITIAL;
    change.to = status;
    begin_cue(availability == UNAVAILABLE ? CUE_HINGE_AVAILABLE : CUE_HINGE_INITIAL, now);
    PUT(",\"status\":");
    put_name(status_names[status]);
    angle_field(angle);
    end_cue();
    availability = AVAILABLE;
    break;
  case DEBOUNCE_COMMITTED:
    if (status != UNKNOWN && status != committed) {
      debounce_state = DEBOUNCE_WINDOW;
      window_committed = committed;
      window_latest = status;
      window_since = now;
      window_deadline = add_time(now, MAX_WAIT);
      arm_debounce();
    }
    break;
  case DEBOUNCE_WINDOW:
    if (status != UNKNOWN && status != window_latest) {
      window_latest = status;
      arm_debounce();
    }
    break;
  }
  // The flat boundary (SPEC 4.3).
  int above = side_known ? (angle >= FLAT_ABOVE ? 1 : angle <= FLAT_BELOW ? 0 : side_above)
                         : (angle <= FLAT_BELOW ? 0 : angle >= FLAT_ABOVE ? 1 : angle >= (FLAT_BELOW + FLAT_ABOVE) / 2);
  if (!side_known || above != side_above) {
    begin_cue(CUE_HINGE_THRESHOLD, now);
    if (above) PUT(",\"boundary\":\"flat\",\"side\":\"above\""); else PUT(",\"boundary\":\"flat\",\"side\":\"below\"");
    angle_field(angle);
    if (!side_known) PUT(",\"initial\":true");
    end_cue();
    side_known = 1;
    side_above = above;
  }
  // Motion and settle (SPEC 4.4).
  int zone = in_zone(angle);
  switch (motion_state) {
  case AWAITING_FIRST:
    motion_state = RESTING;
    baseline = angle;
    return change;
  case RESTING:
    if (zone || !(fabs(angle - baseline) > DEADBAND)) return change;
    opening = angle > baseline;
    motion_state = MOVING;
    extreme = latest_angle = arm_angle = angle;
    arm_time = now;
    motion_cue(angle);
    schedule(TIMER_SETTLE, add_time(now, SETTLE));
    break;
  case MOVING:
    if (zone && opening) {
      settle(angle, ",\"zone\":\"fullyOpen\"", now);
      return change;
    }
    latest_angle = angle;
    extreme = opening ? fmax(extreme, angle) : fmin(extreme, angle);
    if (!zone && (opening ? extreme - angle : angle - extreme) > DEADBAND) {
      opening = !opening;
      extreme = angle;
      motion_cue(angle);
    }
    if (fabs(angle - arm_angle) > SETTLE_TOLERANCE) {
      arm_angle = angle;
      arm_time = now;
      schedule(TIMER_SETTLE, add_time(now, SETTLE));
    }
    break;
  }
  // Progress while moving (SPEC 4.5): at most one an interval, the latest value no later than
  // an interval on.
  double value = progress_value(angle);
  if (progress_waiting) {
    progress_pending = value;
    progress_pending_since = now;
  } else if (differs_from_sent(value)) {
    if (!progress_sent || !(subtract_time(now, progress_sent_t) < PROGRESS_INTERVAL)) {
      emit_progress(value, now);
    } else {
      progress_waiting = 1;
      progress_pending = value;
      progress_pending_since = now;
      schedule(TIMER_PROGRESS, add_time(progress_sent_t, PROGRESS_INTERVAL));
    }
  }
  return change;
}

static struct status_change hinge_timer(uint32_t tag) {
  struct status_change change = {NO_CHANGE, 0, 0, 0};
  switch (tag) {
  case TIMER_DEBOUNCE: {
    if (debounce_state != DEBOUNCE_WINDOW) return change;
    debounce_state = DEBOUNCE_COMMITTED;
    enum status from = window_committed, to = window_latest;
    committed = to;
    if (to == from) return change;
    begin_cue(CUE_HINGE_STATUS, window_since);
    PUT(",\"from\":");
    put_name(status_names[from]);
    PUT(",\"to\":");
    put_name(status_names[to]);
    end_cue();
    begin_cue(CUE_REGIONS_CHANGED, window_since);
    if (to == PARTIALLY_OPEN) PUT(",\"divisionActive\":true"); else PUT(",\"divisionActive\":false");
    end_cue();
    if (to == CLOSED && motion_state == MOVING) settle(latest_angle, ",\"zone\":\"closed\"", window_since);
    change = (struct status_change){CHANGE_COMMITTED, from, to, window_since};
    break;
  }
  case TIMER_SETTLE:
    if (motion_state == MOVING) settle(latest_angle, zone_field_of(latest_angle), arm_time);
    break;
  case TIMER_PROGRESS:
    if (!progress_waiting) break;
    progress_waiting = 0;
    if (differs_from_sent(progress_pending)) emit_progress(progress_pending, progress_pending_since);
    break;
  }
  return change;
}

// MARK: Stages: camera: the frame gaps of a stream (SPEC 4.6)

static void set_nominal(struct stream *stream, double nominal) {
  stream->has_nominal = 1;
  stream->nominal = nominal;
  stream->gap_threshold = round_time(nominal * GAP_FACTOR / 1);
  stream->faster_threshold = round_time(nominal * 1 / GAP_FACTOR);
  stream->stall_delay = round_time(nominal * STALL_FACTOR / 1);
  stream->nominal_rounded = round_time(nominal);
}

static void reset_cadence(struct stream *stream, double fps) {
  stream->declared = fps > 0;
  stream->has_nominal = 0;
  if (fps > 0) set_nominal(stream, 1e9 / fps);
  memset(stream->cadence_deltas, 0, sizeof stream->cadence_deltas);
  memset(stream->cadence_sorted, 0, sizeof stream->cadence_sorted);
  stream->cadence_count = 0;
  stream->cadence_next = 0;
}

// The rate estimate: the median of the last 15 deltas, once there are 3.
static void observe(struct stream *stream, int64_t delta) {
  if (stream->declared || delta <= 0) return;
  int64_t *sorted = stream->cadence_sorted;
  int count = stream->cadence_count;
  if (count == CADENCE_WINDOW) {
    int64_t oldest = stream->cadence_deltas[stream->cadence_next];
    int index = 0, end = count - 1;
    while (index < end) {
      int middle = (index + end) / 2;
      if (sorted[middle] < oldest) index = middle + 1; else end = middle;
    }
    memmove(sorted + index, sorted + index + 1, (size_t)(count - 1 - index) * sizeof *sorted);
    count--;
  }
  stream->cadence_deltas[stream->cadence_next] = delta;
  int position = count;
  while (position > 0 && sorted[position - 1] > delta) {
    sorted[position] = sorted[position - 1];
    position--;
  }
  sorted[position] = delta;
  stream->cadence_next = (stream->cadence_next + 1) % CADENCE_WINDOW;
  stream->cadence_count = ++count;
  if (count >= CADENCE_MINIMUM) {
    double nominal = (double)sorted[count / 2];
    if (!stream->has_nominal || nominal != stream->nominal) set_nominal(stream, nominal);
  }
}

static void adopt(struct stream *stream, int64_t duration) {
  set_nominal(stream, (double)duration);
  for (int index = 0; index < CADENCE_WINDOW; index++) {
    stream->cadence_deltas[index] = duration;
    stream->cadence_sorted[index] = duration;
  }
  stream->cadence_count = CADENCE_WINDOW;
}

static inline int is_alike(int64_t delta, int64_t held) {
  int64_t difference = subtract_time(delta, held);
  uint64_t magnitude = difference < 0 ? 0 - (uint64_t)difference : (uint64_t)difference;
  uint64_t held_magnitude = held < 0 ? 0 - (uint64_t)held : (uint64_t)held;
  return magnitude <= held_magnitude / 4;
}

static inline int64_t frames_in(double nominal, int64_t span) {
  double frames = round((double)span / nominal);
  if (!(frames < 9.2e18)) return INT64_MAX;
  if (!(frames > -9.2e18)) return INT64_MIN;
  return (int64_t)frames;
}

static inline int64_t missing_frames(double nominal, int64_t delta) {
  int64_t frames = frames_in(nominal, delta);
  int64_t missing = frames == INT64_MIN ? INT64_MIN : frames - 1;
  return missing > 1 ? missing : 1;
}

// The cause of the gap between `last` and `current` (SPEC 4.6), and the drops' reason.
static void classify(const struct stream *stream, const struct frame_mark *last, const struct frame_mark *current,
                     uint8_t *cause, int8_t *reason) {
  *reason = -1;
  if (last->camera != NO_CAMERA && current->camera != NO_CAMERA && last->camera != current->camera) {
    *cause = CAUSE_CAMERA_SWITCH;
    return;
  }
  int64_t start = subtract_time(last->t, SWITCH_WINDOW);
#define IN_WINDOW(known, time) ((known) && (time) >= start && (time) <= current->t)
  if (IN_WINDOW(stream->has_latest_input, stream->latest_input) ||
      IN_WINDOW(has_display_event, latest_display_event) || IN_WINDOW(has_closed_change, latest_closed_change)) {
    *cause = CAUSE_CAMERA_SWITCH;
    return;
  }
#undef IN_WINDOW
  int drops = 0, counts[3] = {0, 0, 0};
  int64_t earliest[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
  int arrival[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
  for (size_t index = 0; index < stream->drop_count; index++) {
    const struct drop_report *drop = &stream->drops[index];
    if (!(drop->pts > last->pts && drop->pts < current->pts)) continue;
    int place = drops++;
    if (drop->reason < 0) continue;
    counts[drop->reason]++;
    if (drop->pts < earliest[drop->reason]) {
      earliest[drop->reason] = drop->pts;
      arrival[drop->reason] = place;
    }
  }
  if (drops == 0) {
    *cause = CAUSE_UNEXPLAINED;
    return;
  }
  *cause = CAUSE_REPORTED_DROP;
  for (int candidate = 0; candidate < 3; candidate++) {
    if (counts[candidate] == 0) continue;
    int best = *reason;
    if (best < 0 || counts[candidate] > counts[best] ||
        (counts[candidate] == counts[best] &&
         (earliest[candidate] < earliest[best] ||
          (earliest[candidate] == earliest[best] && arrival[candidate] < arrival[best]))))
      *reason = (int8_t)candidate;
  }
}

// What a frame found: flags in a word, the findings beside it (not zeroed for every frame).
struct frame_action {
  uint8_t has_held_gap, after_gap, has_revealed, early_gaps;
};
static struct finding held_gap_found, revealed_found;

// Early gaps found when the first estimate came, written after the frame's other cues.
static struct finding *early_gaps;
static size_t early_gap_count, early_gap_capacity;

static void add_early_gap(struct finding gap) {
  early_gaps = grow(early_gaps, &early_gap_capacity, sizeof *early_gaps, early_gap_count + 1);
  early_gaps[early_gap_count++] = gap;
}

static void hold_or_report(struct stream *stream, struct finding gap, int bridged, int64_t delta,
                           struct finding *revealed, uint8_t *has_revealed) {
  if (gap.missing == 1 && !bridged) {
    stream->has_held = 1;
    stream->held = gap;
    stream->held_delta = delta;
    stream->held_alike = 0;
  } else if (revealed) {
    *revealed = gap;
    *has_revealed = 1;
  } else {
    add_early_gap(gap);
  }
}

// A held delta met by another alike delta; 1 when the pair confirms a rate change.
static inline int count_alike(struct stream *stream) {
  if (++stream->held_alike < 2) return 0;
  adopt(stream, stream->held_delta);
  stream->has_held = 0;
  return 1;
}

static void judge_early_deltas(struct stream *stream) {
  // Against the first estimate, though a rate change confirmed on the way adopts another.
  double nominal = stream->nominal;
  int64_t threshold = stream->gap_threshold, nominal_rounded = stream->nominal_rounded;
  for (int index = 0; index < stream->early_count; index++) {
    const struct early_delta *delta = &stream->early[index];
    int64_t length = delta->to.pts - delta->from.pts;
    if (stream->has_held) {
      if (!delta->bridged && is_alike(length, stream->held_delta)) {
        count_alike(stream);
        continue;
      }
      stream->has_held = 0;
      add_early_gap(stream->held);
    }
    if (!(length > threshold)) continue;
    int64_t due = add_time(delta->from.t, nominal_rounded);
    struct finding gap = {delta->from.pts, delta->to.pts, due < delta->to.t ? due : delta->to.t,
                          missing_frames(nominal, length), 0, delta->cause, delta->reason};
    hold_or_report(stream, gap, delta->bridged, length, NULL, NULL);
  }
  stream->early_count = 0;
}

static struct frame_action frame_gaps(struct stream *stream, int64_t pts, int8_t camera) {
  struct frame_action action = {0, 0, 0, 0};
  struct frame_mark current = {now, pts, camera};
  if (!stream->running) {
    stream->running = 1;
    stream->last = current;
    goto forget_drops;
  }
  struct frame_mark last = stream->last;
  stream->last = current;
  if (!(pts > last.pts)) {
    stream->has_faster = 0;
    action.has_revealed = 1;
    revealed_found = (struct finding){last.pts, pts, now, 0, 1, 0, -1};
    goto forget_drops;
  }
  int64_t delta = pts - last.pts;
  int bridged = 0;
  for (size_t index = 0; index < stream->drop_count; index++) {
    if (stream->drops[index].pts > last.pts && stream->drops[index].pts < pts) {
      bridged = 1;
      break;
    }
  }
  if (stream->has_held) {
    if (!bridged && is_alike(delta, stream->held_delta)) {
      count_alike(stream);
      goto forget_drops;
    }
    stream->has_held = 0;
    action.has_held_gap = 1;
    held_gap_found = stream->held;
  }
  if (!stream->has_nominal) {
    // The first deltas, judged once an estimate exists.
    if (!bridged) observe(stream, delta);
    if (stream->early_count == MAXIMUM_EARLY_DELTAS) {
      memmove(stream->early, stream->early + 1, (MAXIMUM_EARLY_DELTAS - 1) * sizeof *stream->early);
      stream->early_count--;
    }
    struct early_delta *early = &stream->early[stream->early_count++];
    early->from = last;
    early->to = current;
    early->bridged = (uint8_t)bridged;
    classify(stream, &last, &current, &early->cause, &early->reason);
    if (stream->has_nominal) {
      judge_early_deltas(stream);
      action.early_gaps = early_gap_count > 0;
    }
    goto forget_drops;
  }
  if (!(delta > stream->gap_threshold)) {
    if (bridged) {
      stream->has_faster = 0;
    } else {
      // A faster rate: two alike deltas below the nominal divided by the gap factor, the
      // nominal as it was before this delta was observed.
      int64_t faster_threshold = stream->faster_threshold;
      observe(stream, delta);
      if (!(delta < faster_threshold)) {
        stream->has_faster = 0;
      } else if (!stream->has_faster || !is_alike(delta, stream->faster_delta)) {
        stream->has_faster = 1;
        stream->faster_delta = delta;
      } else {
        adopt(stream, stream->faster_delta);
        stream->has_faster = 0;
      }
    }
    goto forget_drops;
  }
  stream->has_faster = 0;
  action.after_gap = 1;
  {
    uint8_t cause;
    int8_t reason;
    classify(stream, &last, &current, &cause, &reason);
    int64_t due = add_time(last.t, stream->nominal_rounded);
    struct finding gap = {last.pts, pts, due < now ? due : now, missing_frames(stream->nominal, delta), 0, cause, reason};
    hold_or_report(stream, gap, bridged, delta, &revealed_found, &action.has_revealed);
  }
forget_drops:
  if (stream->drop_count > 0) {
    size_t kept = 0;
    for (size_t index = 0; index < stream->drop_count; index++) {
      if (stream->drops[index].pts > pts) stream->drops[kept++] = stream->drops[index];
    }
    stream->drop_count = kept;
  }
  return action;
}

// MARK: Stages: camera: a stream's decision, mask, stall; the stage's events

static void camera_declare(uint32_t name, double fps) {
  names[name].declared_fps = fps;
  if (names[name].stream >= 0) reset_cadence(&streams[names[name].stream], fps);
}

// The stream of `name`, made when first met; -1 past the stream budget.
static int32_t stream_of(uint32_t name) {
  int32_t index = names[name].stream;
  if (index != -1) return index;
  uint32_t length = names[name].length;
  if (stream_count >= MAXIMUM_STREAMS || stream_name_bytes + length > MAXIMUM_STREAM_NAME_BYTES) {
    names[name].stream = -2;
    return -2;
  }
  stream_name_bytes += length;
  streams = grow(streams, &stream_capacity, sizeof *streams, stream_count + 1);
  struct stream *stream = &streams[stream_count];
  memset(stream, 0, sizeof *stream);
  stream->name = name;
  reset_cadence(stream, names[name].declared_fps);
  stream->input = stream->constituent = NO_CAMERA;
  stream->direction_camera = stream->mirroring_camera = NO_CAMERA;
  stream->mask_camera = NO_CAMERA;
  stream->stall_state = STALL_WATCHING;
  reserve_tags(mask_tag((int32_t)stream_count) + 1);
  names[name].stream = (int32_t)stream_count;
  return (int32_t)stream_count++;
}

static inline void stream_field(const struct stream *stream) {
  PUT(",\"stream\":");
  put_string(names[stream->name].bytes, names[stream->name].length);
}

static void finding_cue(const struct stream *stream, const struct finding *finding) {
  begin_cue(finding->regression ? CUE_CAMERA_PTS_REGRESSION : CUE_CAMERA_GAP, finding->since);
  stream_field(stream);
  PUT(",\"from\":");
  put_integer(finding->from);
  PUT(",\"to\":");
  put_integer(finding->to);
  if (!finding->regression) {
    PUT(",\"missing\":");
    put_integer(finding->missing);
    put_name(cause_fields[finding->cause]);
    if (finding->reason >= 0) {
      PUT(",\"reason\":");
      put_name(reason_names[finding->reason]);
    }
  }
  end_cue();
}

// The active camera (SPEC 4.7), and its facing: 1 toward the person, 0 away, -1 unknown.
static int active_camera(const struct stream *stream, int *facing) {
  if (stream->input == VIRTUAL_FRONT) {
    int camera = stream->constituent;
    if (camera == NO_CAMERA) camera = front_camera_toward_user();
    if (camera == NO_CAMERA) camera = VIRTUAL_FRONT;
    // A virtual front camera follows the app between displays, so it faces the person.
    *facing = is_front(camera) ? 1 : facing_of(camera);
    return camera;
  }
  int camera = stream->input != NO_CAMERA ? stream->input : stream->constituent;
  *facing = camera == NO_CAMERA ? -1 : facing_of(camera);
  return camera;
}

// A direction or mirroring cue up to its camera.
static void begin_camera_cue(enum cue_kind kind, const struct stream *stream, int camera) {
  begin_cue(kind, now);
  stream_field(stream);
  PUT(",\"camera\":");
  put_name(camera_names[camera]);
}

// The decision brought up to date: `camera.direction` and `camera.mirroring` when they change.
static void decide(struct stream *stream) {
  int facing;
  int camera = active_camera(stream, &facing);
  if (camera == NO_CAMERA) return;
  if (facing >= 0 && (stream->direction_camera != camera || stream->direction_user != facing)) {
    stream->direction_camera = (int8_t)camera;
    stream->direction_user = (int8_t)facing;
    begin_camera_cue(CUE_CAMERA_DIRECTION, stream, camera);
    if (facing) PUT(",\"facing\":\"user\""); else PUT(",\"facing\":\"away\"");
    end_cue();
  }
  int mirrored = facing >= 0 ? facing : is_front(camera);
  if (stream->mirroring_camera == camera && stream->mirroring_value == mirrored) return;
  stream->mirroring_camera = (int8_t)camera;
  stream->mirroring_value = (int8_t)mirrored;
  begin_camera_cue(CUE_CAMERA_MIRRORING, stream, camera);
  if (mirrored) PUT(",\"mirrored\":true"); else PUT(",\"mirrored\":false");
  if (facing < 0) PUT(",\"basis\":\"deviceType\""); else PUT(",\"basis\":\"direction\"");
  end_cue();
}

enum mask_reason { MASK_INPUT, MASK_DISPLAY, MASK_HINGE };

static void trigger_mask(struct stream *stream, enum mask_reason reason, int64_t since) {
  if (stream->mask_on) return;
  int facing;
  stream->mask_on = 1;
  stream->mask_time = now;
  stream->mask_camera = (int8_t)active_camera(stream, &facing);
  begin_cue(CUE_CAMERA_MASK, since);
  stream_field(stream);
  if (reason == MASK_INPUT) PUT(",\"on\":true,\"reason\":\"input\"");
  else if (reason == MASK_DISPLAY) PUT(",\"on\":true,\"reason\":\"display\"");
  else PUT(",\"on\":true,\"reason\":\"hinge\"");
  end_cue();
  schedule(mask_tag((int32_t)(stream - streams)), add_time(now, MASK_MAX));
}

static void mask_off(struct stream *stream, int64_t since) {
  stream->mask_on = 0;
  begin_cue(CUE_CAMERA_MASK, since);
  stream_field(stream);
  PUT(",\"on\":false");
  end_cue();
}

// Silence begins: a stall is due a stall delay on, once the stream has a nominal.
static void start_silence(struct stream *stream) {
  if (!stream->has_nominal) return;
  stream->stall_state = STALL_SILENT;
  stream->stall_since = now;
  schedule(stall_tag((int32_t)(stream - streams)), add_time(now, stream->stall_delay));
}

static void end_run(struct stream *stream) {
  stream->running = 0;
  stream->drop_count = 0;
  stream->has_faster = 0;
  stream->early_count = 0;
  if (stream->has_held) {
    stream->has_held = 0;
    finding_cue(stream, &stream->held);
  }
}

static void update_accessory(int64_t since, int starts_reporting) {
  if (!starts_reporting && reported_eligible < 0) return;
  int open = committed_known && (accessory_committed == PARTIALLY_OPEN || accessory_committed == FULLY_OPEN);
  int eligible = foreground && accessory_running && preview_visible && open && inner_full_screen;
  if (reported_eligible == eligible) return;
  reported_eligible = eligible;
  begin_cue(CUE_ACCESSORY_ELIGIBLE, since);
  if (eligible) {
    PUT(",\"eligible\":true,\"missing\":[]");
  } else {
    PUT(",\"eligible\":false,\"missing\":[");
    const char *separator = "";
#define MISSING(condition, name)            \
  if (!(condition)) {                       \
    put(separator, strlen(separator));      \
    PUT("\"" name "\"");                    \
    separator = ",";                        \
  }
    MISSING(foreground, "foreground")
    MISSING(accessory_running, "session")
    MISSING(preview_visible, "preview")
    MISSING(open, "open")
    MISSING(inner_full_screen, "innerFullScreen")
#undef MISSING
    PUT("]");
  }
  end_cue();
}

static void camera_hinge_changed(struct status_change change) {
  switch (change.kind) {
  case NO_CHANGE:
    return;
  case CHANGE_INITIAL:
    committed_known = 1;
    accessory_committed = change.to;
    update_accessory(now, 0);
    return;
  case CHANGE_LOST:
    committed_known = 0;
    update_accessory(now, 0);
    return;
  case CHANGE_COMMITTED:
    // A commit from `unknown` learns the status: no fold, so no mask and no switch cause.
    if (change.from != UNKNOWN && (change.from == CLOSED || change.to == CLOSED)) {
      has_closed_change = 1;
      latest_closed_change = change.since;
      for (size_t index = 0; index < stream_count; index++) {
        if (streams[index].input == VIRTUAL_FRONT) trigger_mask(&streams[index], MASK_HINGE, change.since);
      }
    }
    committed_known = 1;
    accessory_committed = change.to;
    update_accessory(change.since, 0);
    return;
  }
}

static void frame(const struct event *event) {
  int32_t index = stream_of(event->name);
  if (index < 0) return;
  struct stream *stream = &streams[index];
  int camera = (int)(event->fields & 7) - 1;
  // Under a `virtualFront` input a frame labelled `virtualFront` keeps the constituent known.
  if (camera == VIRTUAL_FRONT && stream->input == VIRTUAL_FRONT) camera = stream->constituent;
  if (camera != NO_CAMERA && camera != stream->constituent) {
    stream->constituent = (int8_t)camera;
    decide(stream);
  }
  struct frame_action found = frame_gaps(stream, event->pts, (int8_t)camera);
  if (found.has_held_gap) finding_cue(stream, &held_gap_found);
  if (stream->mask_on) {
    int facing;
    int delivering = camera != NO_CAMERA ? camera : active_camera(stream, &facing);
    if (found.after_gap || delivering != stream->mask_camera) {
      cancel(mask_tag(index));
      mask_off(stream, now);
    }
  }
  if (found.has_revealed) finding_cue(stream, &revealed_found);
  if (session_known && !session_running) {
    stream->stall_state = STALL_WATCHING;
  } else {
    start_silence(stream);
  }
  if (found.early_gaps) {
    for (size_t gap = 0; gap < early_gap_count; gap++) finding_cue(stream, &early_gaps[gap]);
    early_gap_count = 0;
  }
}

static void drop(const struct event *event) {
  int32_t index = stream_of(event->name);
  if (index < 0) return;
  struct stream *stream = &streams[index];
  if (stream->running && event->pts <= stream->last.pts) return;
  if (stream->drop_count == MAXIMUM_HELD_DROPS) {
    memmove(stream->drops, stream->drops + 1, (MAXIMUM_HELD_DROPS - 1) * sizeof *stream->drops);
    stream->drop_count--;
  }
  stream->drops = grow(stream->drops, &stream->drop_capacity, sizeof *stream->drops, stream->drop_count + 1);
  uint8_t reason = event->fields & 3;
  stream->drops[stream->drop_count++] = (struct drop_report){event->pts, reason == 3 ? -1 : (int8_t)reason};
}

static void input(const struct event *event) {
  int32_t index = stream_of(event->name);
  if (index < 0) return;
  struct stream *stream = &streams[index];
  int camera = event->fields & 7;
  if (stream->input != NO_CAMERA && stream->input != camera) trigger_mask(stream, MASK_INPUT, now);
  stream->has_latest_input = 1;
  stream->latest_input = now;
  stream->input = (int8_t)camera;
  stream->constituent = NO_CAMERA;
  decide(stream);
}

static void direction(const struct event *event) {
  struct direction_map map = {1, event->toward, event->away, event->name};
  if (names[event->name].is_main) {
    main_map = map;
  } else if (!other_map.set || other_map.view == event->name) {
    other_map = map;
  } else {
    several_other_views = 1;
  }
  for (size_t index = 0; index < stream_count; index++) decide(&streams[index]);
}

static void display(const struct event *event) {
  int outer = event->fields & 1, full_screen = (event->fields >> 1) & 1;
  has_display_event = 1;
  latest_display_event = now;
  if (display_known && display_outer != outer) {
    for (size_t index = 0; index < stream_count; index++) {
      if (streams[index].input == VIRTUAL_FRONT) trigger_mask(&streams[index], MASK_DISPLAY, now);
    }
  }
  display_known = 1;
  display_outer = outer;
  inner_full_screen = !outer && full_screen;
  update_accessory(now, 1);
}

static void session(const struct event *event) {
  int running = event->fields & 1, visible = (event->fields >> 1) & 3;
  int was_running = !session_known || session_running;
  session_known = 1;
  session_running = running;
  if (running && !was_running) {
    for (size_t index = 0; index < stream_count; index++) {
      if (streams[index].stall_state != STALL_ENDED) start_silence(&streams[index]);
    }
  } else if (!running) {
    // Every stop ends a run of frames, a repeated one too, and a stopped session's silence is
    // no stall.
    for (size_t index = 0; index < stream_count; index++) {
      end_run(&streams[index]);
      if (streams[index].stall_state == STALL_SILENT) streams[index].stall_state = STALL_WATCHING;
      cancel(stall_tag((int32_t)index));
    }
  }
  accessory_running = running;
  if (visible) preview_visible = visible == 2;
  update_accessory(now, 1);
}

static void stream_end(const struct event *event) {
  int32_t index = stream_of(event->name);
  if (index < 0) return;
  end_run(&streams[index]);
  streams[index].stall_state = STALL_ENDED;
  cancel(stall_tag(index));
}

static void camera_timer(uint32_t tag) {
  int32_t index = (int32_t)((tag - TIMER_STREAMS) / 2);
  struct stream *stream = &streams[index];
  if ((tag - TIMER_STREAMS) % 2 == 0) {
    if (stream->stall_state != STALL_SILENT) return;
    stream->stall_state = STALL_WATCHING;
    begin_cue(CUE_CAMERA_STALL, stream->stall_since);
    stream_field(stream);
    end_cue();
  } else if (stream->mask_on) {
    mask_off(stream, stream->mask_time);
  }
}

// End of input: a gap still held for confirmation is reported, at the end.
static void camera_finish(void) {
  for (size_t index = 0; index < stream_count; index++) {
    streams[index].early_count = 0;
    if (streams[index].has_held) {
      streams[index].has_held = 0;
      finding_cue(&streams[index], &streams[index].held);
    }
  }
}

// MARK: Stages: the pipeline: an event or a timer to its stage

static void process_event(const struct event *event) {
  switch (event->kind) {
  case HINGE: camera_hinge_changed(hinge(event)); break;
  case FRAME: frame(event); break;
  case DROP: drop(event); break;
  case INPUT: input(event); break;
  case DIRECTION: direction(event); break;
  case DISPLAY: display(event); break;
  case APP:
    foreground = !(event->fields & 1);
    update_accessory(now, 1);
    break;
  case SESSION: session(event); break;
  case STREAM_END: stream_end(event); break;
  case MARK:
    begin_cue(CUE_MARK, event->t);
    PUT(",\"label\":");
    put_string(event->label, event->text_bytes);
    end_cue();
    break;
  default: break;
  }
}

static void fire(uint32_t tag) {
  if (tag < TIMER_STREAMS) camera_hinge_changed(hinge_timer(tag)); else camera_timer(tag);
}

// MARK: Engine: the reorder ring, the release line, timers before later events

static void fire_timers_due_by(int64_t limit) {
  while (heap_count > 0 && heap[0].due <= limit) {
    struct timer timer = heap[0];
    remove_at(0);
    if (timer.due > now) now = timer.due;
    fire(timer.tag);
  }
}

static inline void process(const struct event *event) {
  if (heap_count > 0 && heap[0].due <= event->t - 1) fire_timers_due_by(event->t - 1);
  if (event->t > now) now = event->t;
  process_event(event);
}

// Events in (t, arrival) order, in a ring that grows by doubling; the engine's bounds release
// the earliest early, as Crease's do.
static struct event *ring;
static size_t ring_mask, ring_head, ring_count;
static int64_t ring_text_bytes;

static void grow_ring(void) {
  size_t capacity = ring ? (ring_mask + 1) * 2 : 1024;
  struct event *larger = malloc(capacity * sizeof *larger);
  if (!larger) fail("out of memory");
  for (size_t index = 0; index < ring_count; index++) larger[index] = ring[(ring_head + index) & ring_mask];
  free(ring);
  ring = larger;
  ring_mask = capacity - 1;
  ring_head = 0;
}

// The slot the next event is decoded into.
static inline struct event *ring_tail(void) {
  if (ring == NULL || ring_count == ring_mask + 1) grow_ring();
  return &ring[(ring_head + ring_count) & ring_mask];
}

static inline void process_earliest(void) {
  struct event *event = &ring[ring_head];
  ring_text_bytes -= event->text_bytes;
  ring_head = (ring_head + 1) & ring_mask;
  ring_count--;
  process(event);
}

// Takes in the event decoded at the tail, in its place by (t, arrival).
static inline void admit_tail(void) {
  size_t index = ring_count++;
  struct event *slot = &ring[(ring_head + index) & ring_mask];
  ring_text_bytes += slot->text_bytes;
  if (index > 0 && ring[(ring_head + index - 1) & ring_mask].t > slot->t) {
    struct event moving = *slot;
    do {
      ring[(ring_head + index) & ring_mask] = ring[(ring_head + index - 1) & ring_mask];
      index--;
    } while (index > 0 && ring[(ring_head + index - 1) & ring_mask].t > moving.t);
    ring[(ring_head + index) & ring_mask] = moving;
  }
}

static int64_t latest = INT64_MIN;  // the largest t read
static int has_latest;

static void release(void) {
  while (ring_count > BUFFER_LIMIT || ring_text_bytes > BUFFER_BYTES) process_earliest();
  int64_t watermark = latest - REORDER_WINDOW;  // latest is at least 0: no overflow
  while (ring_count > 0 && ring[ring_head].t <= watermark) process_earliest();
  int64_t limit = watermark - 1;
  if (limit >= now && heap_count > 0 && heap[0].due <= limit) fire_timers_due_by(limit);
}

// MARK: Reading: the file, and the loop over its events

int main(int argc, char **argv) {
  if (argc != 2) fail("usage: crease-peer TRACE.crtrace");
  int descriptor = open(argv[1], O_RDONLY);
  struct stat status;
  if (descriptor < 0 || fstat(descriptor, &status) != 0) fail("cannot open the trace");
  size_t size = (size_t)status.st_size;
  if (size < 12) fail("not a version 2 binary trace");
  const uint8_t *bytes = mmap(NULL, size, PROT_READ, MAP_PRIVATE, descriptor, 0);
  if (bytes == MAP_FAILED) fail("cannot map the trace");
  if (memcmp(bytes, "CRTRACE", 8) != 0 || bytes[8] != 2 || bytes[9] != 0) fail("not a version 2 binary trace");
  cursor = bytes + 12;
  file_end = bytes + size;
  for (int kind = 0; kind < CUE_KINDS; kind++) cue_opening_lengths[kind] = strlen(cue_openings[kind]);
  reserve_tags(TIMER_STREAMS);

  uint64_t sequence = 0;
  int ended = 0;
  int64_t end_time = 0;
  struct event *event;
  while (next_event(event = ring_tail())) {
    if (event->kind == END) {
      ended = 1;
      end_time = event->t;
      break;
    }
    // Late: more than the window behind the largest t read, or behind processed time; it goes
    // to crease's late output, not to its cues, so it is left out. Both times are at least 0
    // (the decoder refuses a negative t): the difference fits.
    if ((has_latest && latest - event->t > REORDER_WINDOW) || event->t < now) continue;
    event->sequence = sequence++;
    if (!has_latest || event->t > latest) latest = event->t;
    has_latest = 1;
    admit_tail();
    release();
  }
  // End of input: every buffered event in order; then, with an `end`, the timers due by it,
  // without one all but the stalls.
  while (ring_count > 0) process_earliest();
  if (ended) {
    fire_timers_due_by(end_time - 1);
    if (end_time > now) now = end_time;
    camera_finish();
    fire_timers_due_by(end_time);
  } else {
    camera_finish();
    for (size_t index = 0; index < stream_count; index++) cancel(stall_tag((int32_t)index));
    fire_timers_due_by(INT64_MAX);
  }
  flush_output();
  return 0;
}
