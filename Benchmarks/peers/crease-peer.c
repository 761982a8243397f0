// crease-peer: the work of `crease replay` on a binary trace, written as a single-threaded C
// program, to say how far Crease is from what the machine does with the same logic.
//
// It reads binary trace version 2 (Docs/BinaryTraceFormat.md), orders events in a 50 ms reorder
// ring, fires timers in trace time, runs the hinge stage (status debounce with a maximum wait,
// the `flat` hysteresis boundary, motion and settle, progress at 60 Hz: SPEC 4.2 to 4.5) and the
// camera stage's frame gaps, drops, stalls and mirroring decision (SPEC 4.6 to 4.8), and writes
// the same cue lines as Crease. It is not Crease: it checks little (a bad record stops it), has
// one source and the default configuration, and keeps the rules the benchmark trace exercises.
// `make bench` runs it under callgrind beside Crease, checks that it writes as many cues of each
// kind, and prints its instructions an event and Crease's ratio to it.
//
// Usage: crease-peer TRACE.crtrace   (cue lines on standard output)
//
// The `// MARK:` sections name the parts of the benchmark's table (decoding, engine, stages,
// cues, reading): `make bench` sums each source line's instructions into its section's part.

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: Configuration (SPEC 4, the defaults)

#define REORDER_WINDOW 50000000LL
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
#define MAX_STREAMS 8
#define MAX_NAMES 1024

static void fail(const char *message) {
  fprintf(stderr, "crease-peer: %s\n", message);
  exit(1);
}

// MARK: Cues: writing the lines

static char output[1 << 16];
static size_t used;

static void flush_output(void) {
  if (used > 0 && fwrite(output, 1, used, stdout) != used) fail("cannot write");
  used = 0;
}

static inline void put(const char *bytes, size_t count) {
  if (used + count > sizeof output) flush_output();
  memcpy(output + used, bytes, count);
  used += count;
}

#define PUT(literal) put(literal, sizeof(literal) - 1)

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Two digits a step, from the end, as Crease does.
static inline void put_integer(int64_t value) {
  char digits[24];
  int at = 24;
  uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
  while (magnitude >= 100) {
    at -= 2;
    memcpy(digits + at, digit_pairs + magnitude % 100 * 2, 2);
    magnitude /= 100;
  }
  if (magnitude >= 10) {
    at -= 2;
    memcpy(digits + at, digit_pairs + magnitude * 2, 2);
  } else {
    digits[--at] = (char)('0' + magnitude);
  }
  if (value < 0) digits[--at] = '-';
  put(digits + at, (size_t)(24 - at));
}

// A decimal as Crease writes one: rounded to thousandths, at least one decimal, no trailing zeros.
static inline void put_decimal(double value) {
  int64_t thousandths = (int64_t)llround(value * 1000);
  if (thousandths < 0) {
    PUT("-");
    thousandths = -thousandths;
  }
  put_integer(thousandths / 1000);
  int fraction = (int)(thousandths % 1000);
  char text[4] = {'.', (char)('0' + fraction / 100), (char)('0' + fraction / 10 % 10), (char)('0' + fraction % 10)};
  size_t length = 4;
  while (length > 2 && text[length - 1] == '0') length--;
  put(text, length);
}

enum cue_kind {
  CUE_HINGE_INITIAL, CUE_HINGE_STATUS, CUE_REGIONS_CHANGED, CUE_HINGE_THRESHOLD, CUE_HINGE_MOTION,
  CUE_HINGE_SETTLED, CUE_HINGE_PROGRESS, CUE_CAMERA_GAP, CUE_CAMERA_STALL, CUE_CAMERA_MIRRORING, CUE_MARK,
  CUE_KINDS
};
static const char *cue_names[CUE_KINDS] = {
  "hinge.initial", "hinge.status", "regions.changed", "hinge.threshold", "hinge.motion", "hinge.settled",
  "hinge.progress", "camera.gap", "camera.stall", "camera.mirroring", "mark",
};
static size_t cue_name_lengths[CUE_KINDS];

static int64_t now;  // trace time: the event or timer being processed

static void begin_cue(enum cue_kind kind, int64_t since) {
  PUT("{\"t\":");
  put_integer(now);
  PUT(",\"since\":");
  put_integer(since);
  PUT(",\"cue\":\"");
  put(cue_names[kind], cue_name_lengths[kind]);
  PUT("\"");
}

static inline void end_cue(void) { PUT("}\n"); }

// MARK: Events

enum event_kind { HINGE = 1, FRAME, DROP, INPUT, DIRECTION, DISPLAY, APP, SESSION, MARK, END };
enum status { CLOSED, PARTIALLY_OPEN, FULLY_OPEN, UNKNOWN };
static const char *status_names[] = {"closed", "partiallyOpen", "fullyOpen", "unknown"};
static const char *camera_names[] = {"outerFront", "innerFront", "virtualFront", "backWide", "backUltraWide",
                                     "backTelephoto"};

// A plain record: labels and names point into the file's bytes.
struct event {
  int64_t t;
  uint64_t sequence;
  uint8_t kind, status, camera, reason, has_hinge;
  int stream;
  double angle;
  int64_t pts;
  const uint8_t *label;
  uint32_t label_length;
};

// MARK: Decoding binary version 2

static const uint8_t *cursor, *file_end;
static const uint8_t *names[MAX_NAMES];
static uint32_t name_lengths[MAX_NAMES];
static int name_count;
static int64_t previous_t;
static double nominal_fps[MAX_STREAMS];
static const uint8_t *stream_names[MAX_STREAMS];
static uint32_t stream_name_lengths[MAX_STREAMS];
static int stream_count;

static inline uint64_t varint(void) {
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

static inline int64_t zigzag(void) {
  uint64_t code = varint();
  return (int64_t)(code >> 1) ^ -(int64_t)(code & 1);
}

static int stream_index(const uint8_t *name, uint32_t length) {
  for (int index = 0; index < stream_count; index++) {
    if (stream_name_lengths[index] == length && memcmp(stream_names[index], name, length) == 0) return index;
  }
  if (stream_count == MAX_STREAMS) fail("too many streams");
  stream_names[stream_count] = name;
  stream_name_lengths[stream_count] = length;
  nominal_fps[stream_count] = 0;
  return stream_count++;
}

static int name_field(void) {
  uint64_t number = varint();
  if (number > 0) {
    if (number > (uint64_t)name_count) fail("a name number the table does not have");
    return stream_index(names[number - 1], name_lengths[number - 1]);
  }
  uint64_t length = varint();
  if (length > (uint64_t)(file_end - cursor)) fail("a name past the end");
  const uint8_t *name = cursor;
  cursor += length;
  if (name_count < MAX_NAMES) {
    names[name_count] = name;
    name_lengths[name_count++] = (uint32_t)length;
  }
  return stream_index(name, (uint32_t)length);
}

// A CMTime in nanoseconds, rounded toward negative infinity.
static int64_t pts_field(int in_nanoseconds) {
  int64_t value = zigzag();
  if (in_nanoseconds) return value;
  int64_t timescale = (int64_t)varint();
  if (timescale <= 0) fail("a timescale of 0 or less");
  __int128 scaled = (__int128)value * 1000000000;
  __int128 quotient = scaled / timescale;
  if (scaled % timescale != 0 && scaled < 0) quotient -= 1;
  return (int64_t)quotient;
}

static void header(void) {
  varint();  // version
  for (int field = 0; field < 2; field++) {  // device, os
    if (cursor >= file_end) fail("a header ends early");
    if (*cursor++) {
      uint64_t length = varint();
      cursor += length;
    }
  }
  uint64_t streams = varint();
  for (uint64_t index = 0; index < streams; index++) {
    uint64_t length = varint();
    const uint8_t *name = cursor;
    cursor += length;
    double fps;
    memcpy(&fps, cursor, 8);
    cursor += 8;
    nominal_fps[stream_index(name, (uint32_t)length)] = fps;
  }
}

// The next event, or 0 at the end of the file.
static int next_event(struct event *event) {
  while (cursor < file_end) {
    uint64_t length = varint();
    const uint8_t *record_end = cursor + length;
    if (length == 0 || record_end > file_end) fail("a record past the end of the file");
    uint8_t tag = *cursor++;
    uint8_t kind = tag & 0x0F;
    if (kind == 0) {
      header();
      cursor = record_end;
      continue;
    }
    previous_t += zigzag();
    memset(event, 0, sizeof *event);
    event->t = previous_t;
    event->kind = kind;
    switch (kind) {
    case HINGE:
      event->has_hinge = (tag >> 4) & 3;
      event->status = tag >> 6;
      if (event->has_hinge) {
        memcpy(&event->angle, cursor, 8);
        cursor += 8;
        if (event->has_hinge == 2) event->angle *= 180 / M_PI;
      }
      break;
    case FRAME:
      event->camera = (tag >> 4) & 7;  // camera + 1, 0 for none
      event->stream = name_field();
      event->pts = pts_field(tag >> 7);
      break;
    case DROP:
      event->reason = (tag >> 4) & 3;
      event->stream = name_field();
      event->pts = pts_field(tag >> 7);
      break;
    case INPUT:
      event->camera = (tag >> 4) & 7;
      event->stream = name_field();
      break;
    case DIRECTION:
      name_field();
      cursor += 2;
      break;
    case MARK:
      event->label_length = (uint32_t)varint();
      event->label = cursor;
      cursor += event->label_length;
      break;
    default:  // display, app, session, end: their fields are in the kind byte
      break;
    }
    if (cursor != record_end) fail("a record with bytes left over, or cut short");
    return 1;
  }
  return 0;
}

// MARK: Engine: timers, one slot per tag, fired in due order, ties in the order set

enum timer_tag { TIMER_DEBOUNCE, TIMER_SETTLE, TIMER_PROGRESS, TIMER_STALL, TIMER_TAGS = TIMER_STALL + MAX_STREAMS };
static int64_t timer_due[TIMER_TAGS];
static uint64_t timer_order[TIMER_TAGS];
static uint32_t timers_set;  // a bit per tag
static uint64_t timer_sequence;

static inline void schedule(int tag, int64_t due) {
  timer_due[tag] = due;
  timer_order[tag] = timer_sequence++;
  timers_set |= 1u << tag;
}

static inline void cancel(int tag) { timers_set &= ~(1u << tag); }

// The tag of the timer due first, or -1.
static inline int next_timer(void) {
  int best = -1;
  for (uint32_t set = timers_set; set; set &= set - 1) {
    int tag = __builtin_ctz(set);
    if (best < 0 || timer_due[tag] < timer_due[best] ||
        (timer_due[tag] == timer_due[best] && timer_order[tag] < timer_order[best]))
      best = tag;
  }
  return best;
}

// MARK: Stages: hinge

static int hinge_seen;
static enum status committed;
static int window_open;
static enum status window_committed, window_latest;
static int64_t window_since, window_deadline;
static int side_known, side_above;
enum motion_state { AWAITING_FIRST, RESTING, MOVING };
static enum motion_state motion_state;
static double baseline, extreme, latest_angle, arm_angle;
static int opening;
static int64_t arm_time;
static int64_t progress_sent_thousandths = INT64_MIN, progress_sent_t;
static int progress_waiting;
static double progress_pending;
static int64_t progress_pending_since;

static inline int64_t thousandths(double value) { return (int64_t)llround(value * 1000); }
static inline double progress_value(double angle) { return fmin(fmax(angle / PROGRESS_FULL, 0), 1); }
static inline int in_zone(double angle) { return fabs(180 - angle) < FULLY_OPEN_ZONE; }

static void angle_field(double angle) {
  PUT(",\"angle\":");
  put_decimal(angle);
}

static void emit_progress(double value, int64_t since) {
  progress_sent_thousandths = thousandths(value);
  progress_sent_t = now;
  begin_cue(CUE_HINGE_PROGRESS, since);
  PUT(",\"value\":");
  put_decimal(value);
  end_cue();
}

static void settle(double angle, const char *zone, int64_t since) {
  cancel(TIMER_SETTLE);
  cancel(TIMER_PROGRESS);
  progress_waiting = 0;
  double value = progress_value(angle);
  if (thousandths(value) != progress_sent_thousandths) emit_progress(value, since);
  begin_cue(CUE_HINGE_SETTLED, since);
  angle_field(angle);
  PUT(",\"zone\":\"");
  put(zone, strlen(zone));
  PUT("\"");
  end_cue();
  motion_state = RESTING;
  baseline = angle;
}

static void hinge(const struct event *event) {
  if (!event->has_hinge) return;  // availability is not part of the peer's work
  double angle = event->angle;
  enum status status = event->status;
  if (!hinge_seen) {
    hinge_seen = 1;
    committed = status;
    begin_cue(CUE_HINGE_INITIAL, now);
    PUT(",\"status\":\"");
    put(status_names[status], strlen(status_names[status]));
    PUT("\"");
    angle_field(angle);
    end_cue();
  } else if (status != UNKNOWN && status != (window_open ? window_latest : committed)) {
    if (!window_open) {
      window_open = 1;
      window_committed = committed;
      window_since = now;
      window_deadline = now + MAX_WAIT;
    }
    window_latest = status;
    int64_t quiet = now + DEBOUNCE;
    schedule(TIMER_DEBOUNCE, quiet < window_deadline ? quiet : window_deadline);
  }
  // The flat boundary.
  int above = side_known ? (angle >= FLAT_ABOVE ? 1 : angle <= FLAT_BELOW ? 0 : side_above)
                         : angle >= (FLAT_BELOW + FLAT_ABOVE) / 2;
  if (!side_known || above != side_above) {
    begin_cue(CUE_HINGE_THRESHOLD, now);
    PUT(",\"boundary\":\"flat\",\"side\":\"");
    if (above) PUT("above"); else PUT("below");
    PUT("\"");
    angle_field(angle);
    if (!side_known) PUT(",\"initial\":true");
    end_cue();
    side_known = 1;
    side_above = above;
  }
  // Motion and settle.
  int zone = in_zone(angle);
  switch (motion_state) {
  case AWAITING_FIRST:
    motion_state = RESTING;
    baseline = angle;
    return;
  case RESTING:
    if (zone || fabs(angle - baseline) <= DEADBAND) return;
    opening = angle > baseline;
    motion_state = MOVING;
    extreme = latest_angle = arm_angle = angle;
    arm_time = now;
    begin_cue(CUE_HINGE_MOTION, now);
    if (opening) PUT(",\"phase\":\"opening\""); else PUT(",\"phase\":\"closing\"");
    angle_field(angle);
    end_cue();
    schedule(TIMER_SETTLE, now + SETTLE);
    break;
  case MOVING:
    if (zone && opening) {
      settle(angle, "fullyOpen", now);
      return;
    }
    latest_angle = angle;
    extreme = opening ? fmax(extreme, angle) : fmin(extreme, angle);
    if (!zone && (opening ? extreme - angle : angle - extreme) > DEADBAND) {
      opening = !opening;
      extreme = angle;
      begin_cue(CUE_HINGE_MOTION, now);
      if (opening) PUT(",\"phase\":\"opening\""); else PUT(",\"phase\":\"closing\"");
      angle_field(angle);
      end_cue();
    }
    if (fabs(angle - arm_angle) > SETTLE_TOLERANCE) {
      arm_angle = angle;
      arm_time = now;
      schedule(TIMER_SETTLE, now + SETTLE);
    }
    break;
  }
  // Progress, while moving: at most one an interval, the latest value no later than an interval on.
  double value = progress_value(angle);
  if (progress_waiting) {
    progress_pending = value;
    progress_pending_since = now;
  } else if (thousandths(value) != progress_sent_thousandths) {
    if (progress_sent_thousandths == INT64_MIN || now - progress_sent_t >= PROGRESS_INTERVAL) {
      emit_progress(value, now);
    } else {
      progress_waiting = 1;
      progress_pending = value;
      progress_pending_since = now;
      schedule(TIMER_PROGRESS, progress_sent_t + PROGRESS_INTERVAL);
    }
  }
}

static const char *zone_of(double angle) { return in_zone(angle) ? "fullyOpen" : angle < DEADBAND ? "closed" : "half"; }

static void hinge_timer(int tag) {
  switch (tag) {
  case TIMER_DEBOUNCE: {
    window_open = 0;
    enum status from = window_committed, to = window_latest;
    committed = to;
    if (to == from) return;
    begin_cue(CUE_HINGE_STATUS, window_since);
    PUT(",\"from\":\"");
    put(status_names[from], strlen(status_names[from]));
    PUT("\",\"to\":\"");
    put(status_names[to], strlen(status_names[to]));
    PUT("\"");
    end_cue();
    begin_cue(CUE_REGIONS_CHANGED, window_since);
    if (to == PARTIALLY_OPEN) PUT(",\"divisionActive\":true"); else PUT(",\"divisionActive\":false");
    end_cue();
    if (to == CLOSED && motion_state == MOVING) settle(latest_angle, "closed", window_since);
    break;
  }
  case TIMER_SETTLE:
    if (motion_state == MOVING) settle(latest_angle, zone_of(latest_angle), arm_time);
    break;
  case TIMER_PROGRESS:
    progress_waiting = 0;
    if (thousandths(progress_pending) != progress_sent_thousandths) emit_progress(progress_pending, progress_pending_since);
    break;
  }
}

// MARK: Stages: camera frame gaps, drops, stalls, the mirroring decision

struct stream_state {
  int has_frame, decided_camera, pending_drops;
  double nominal;
  int64_t last_pts, gap_threshold, stall_after;
  int64_t drop_pts[16];
  uint8_t drop_reason[16];
};
static struct stream_state streams[MAX_STREAMS];

static void prepare_stream(int index) {
  struct stream_state *stream = &streams[index];
  if (stream->nominal > 0) return;
  double nominal = nominal_fps[index] > 0 ? 1e9 / nominal_fps[index] : 1e9 / 30;
  stream->nominal = nominal;
  stream->gap_threshold = (int64_t)llround(GAP_FACTOR * nominal);
  stream->stall_after = (int64_t)llround(STALL_FACTOR * nominal);
}

static void frame(const struct event *event) {
  struct stream_state *stream = &streams[event->stream];
  prepare_stream(event->stream);
  if (event->camera && event->camera != stream->decided_camera) {
    stream->decided_camera = event->camera;
    // Without a direction update the decision goes by the device type: a front camera mirrors.
    int front = event->camera <= 3;
    begin_cue(CUE_CAMERA_MIRRORING, now);
    PUT(",\"stream\":\"");
    put((const char *)stream_names[event->stream], stream_name_lengths[event->stream]);
    PUT("\",\"camera\":\"");
    put(camera_names[event->camera - 1], strlen(camera_names[event->camera - 1]));
    if (front) PUT("\",\"mirrored\":true,\"basis\":\"deviceType\""); else PUT("\",\"mirrored\":false,\"basis\":\"deviceType\"");
    end_cue();
  }
  if (stream->has_frame) {
    int64_t delta = event->pts - stream->last_pts;
    if (delta > stream->gap_threshold) {
      int64_t missing = (int64_t)llround((double)delta / stream->nominal) - 1;
      int bridged = 0;
      for (int index = 0; index < stream->pending_drops; index++) {
        if (stream->drop_pts[index] > stream->last_pts && stream->drop_pts[index] < event->pts) bridged = 1;
      }
      begin_cue(CUE_CAMERA_GAP, now);
      PUT(",\"stream\":\"");
      put((const char *)stream_names[event->stream], stream_name_lengths[event->stream]);
      PUT("\",\"from\":");
      put_integer(stream->last_pts);
      PUT(",\"to\":");
      put_integer(event->pts);
      PUT(",\"missing\":");
      put_integer(missing > 1 ? missing : 1);
      if (bridged) PUT(",\"cause\":\"reportedDrop\""); else PUT(",\"cause\":\"unexplained\"");
      end_cue();
    }
  }
  // A drop is forgotten once a frame at or past its pts arrives.
  int kept = 0;
  for (int index = 0; index < stream->pending_drops; index++) {
    if (stream->drop_pts[index] > event->pts) {
      stream->drop_pts[kept] = stream->drop_pts[index];
      stream->drop_reason[kept++] = stream->drop_reason[index];
    }
  }
  stream->pending_drops = kept;
  stream->has_frame = 1;
  stream->last_pts = event->pts;
  schedule(TIMER_STALL + event->stream, now + stream->stall_after);
}

static void drop(const struct event *event) {
  struct stream_state *stream = &streams[event->stream];
  if (stream->pending_drops < 16) {
    stream->drop_pts[stream->pending_drops] = event->pts;
    stream->drop_reason[stream->pending_drops++] = event->reason;
  }
}

static void stall(int index) {
  begin_cue(CUE_CAMERA_STALL, now);
  PUT(",\"stream\":\"");
  put((const char *)stream_names[index], stream_name_lengths[index]);
  PUT("\"");
  end_cue();
}

// MARK: Engine: the reorder ring, the watermark, timers before later events

static void fire_timers_before(int64_t limit) {
  for (int tag; (tag = next_timer()) >= 0 && timer_due[tag] < limit;) {
    cancel(tag);
    now = timer_due[tag];
    if (tag >= TIMER_STALL) stall(tag - TIMER_STALL); else hinge_timer(tag);
  }
}

static void process(const struct event *event) {
  fire_timers_before(event->t);
  if (event->t > now) now = event->t;
  switch (event->kind) {
  case HINGE: hinge(event); break;
  case FRAME: frame(event); break;
  case DROP: drop(event); break;
  case MARK:
    begin_cue(CUE_MARK, now);
    PUT(",\"label\":\"");
    put((const char *)event->label, event->label_length);  // labels needing escapes are not the bench's
    PUT("\"");
    end_cue();
    break;
  default: break;
  }
}

#define RING 1024
static struct event ring[RING];
static unsigned ring_head, ring_count;

static inline int before(const struct event *a, const struct event *b) {
  return a->t < b->t || (a->t == b->t && a->sequence < b->sequence);
}

static void admit(const struct event *event, int64_t *latest) {
  if (ring_count == RING) {  // full: the earliest goes now
    process(&ring[ring_head]);
    ring_head = (ring_head + 1) & (RING - 1);
    ring_count--;
  }
  unsigned index = ring_count++;
  ring[(ring_head + index) & (RING - 1)] = *event;
  while (index > 0 && before(&ring[(ring_head + index) & (RING - 1)], &ring[(ring_head + index - 1) & (RING - 1)])) {
    struct event moving = ring[(ring_head + index) & (RING - 1)];
    ring[(ring_head + index) & (RING - 1)] = ring[(ring_head + index - 1) & (RING - 1)];
    ring[(ring_head + index - 1) & (RING - 1)] = moving;
    index--;
  }
  if (event->t > *latest) *latest = event->t;
  int64_t watermark = *latest - REORDER_WINDOW;
  while (ring_count > 0 && ring[ring_head].t <= watermark) {
    process(&ring[ring_head]);
    ring_head = (ring_head + 1) & (RING - 1);
    ring_count--;
  }
  fire_timers_before(watermark);
}

// MARK: Reading: the file, and the loop over its events

int main(int argc, char **argv) {
  if (argc != 2) fail("usage: crease-peer TRACE.crtrace");
  FILE *file = fopen(argv[1], "rb");
  if (!file) fail("cannot open the trace");
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  uint8_t *bytes = malloc((size_t)size);
  if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) fail("cannot read the trace");
  fclose(file);
  if (size < 12 || memcmp(bytes, "CRTRACE", 8) != 0 || bytes[8] != 2 || bytes[9] != 0) fail("not a version 2 binary trace");
  cursor = bytes + 12;
  file_end = bytes + size;
  for (int kind = 0; kind < CUE_KINDS; kind++) cue_name_lengths[kind] = strlen(cue_names[kind]);

  struct event event;
  int64_t latest = INT64_MIN;
  uint64_t sequence = 0;
  int ended = 0;
  int64_t end_time = 0;
  while (next_event(&event)) {
    event.sequence = sequence++;
    if (event.kind == END) {
      ended = 1;
      end_time = event.t;
      break;
    }
    admit(&event, &latest);
  }
  // End of input: the buffered events in order, then the timers (with an `end`, those due by it;
  // without, all but the stalls).
  while (ring_count > 0) {
    process(&ring[ring_head]);
    ring_head = (ring_head + 1) & (RING - 1);
    ring_count--;
  }
  if (ended) {
    fire_timers_before(end_time + 1);
  } else {
    for (int index = 0; index < MAX_STREAMS; index++) cancel(TIMER_STALL + index);
    fire_timers_before(INT64_MAX);
  }
  flush_output();
  free(bytes);
  return 0;
}
