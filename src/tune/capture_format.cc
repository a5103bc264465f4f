#include "tune/capture_format.h"

#include <optional>

namespace gpuport::tune {
namespace {

constexpr std::uint8_t kValueParam = 0, kPointerParam = 1;

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s);
  }
  void blob(std::string_view s) {
    u64(s.size());
    out_.append(s);
  }
  void raw(std::string_view s) { out_.append(s); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

// Bounds-checked little-endian reads. The first failure is kept (with the offset where it
// happened) and every later read fails too, so a parser can read on and check once at the end
// of each record.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& file) : bytes_(bytes), file_(file) {}

  bool failed() const { return error_.has_value(); }
  std::size_t offset() const { return pos_; }
  std::size_t left() const { return bytes_.size() - pos_; }

  void fail(const std::string& what) { fail_at(pos_, what); }
  void fail_at(std::size_t where, const std::string& what) {
    if (error_) return;
    error_ = Diagnostic{.severity = Severity::error,
                        .code = "bad-capture",
                        .message = "at byte " + std::to_string(where) + ": " + what,
                        .location = {.file = file_}};
  }
  Diagnostic take_error() { return std::move(*error_); }

  std::string_view take(std::size_t count, std::string_view what) {
    if (failed()) return {};
    if (count > left()) {
      fail("truncated: " + std::string(what) + " needs " + std::to_string(count) + " bytes, " + std::to_string(left()) +
           " left");
      return {};
    }
    std::string_view s = bytes_.substr(pos_, count);
    pos_ += count;
    return s;
  }
  std::uint64_t little_endian(std::size_t width, std::string_view what) {
    std::string_view s = take(width, what);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < s.size(); ++i) v |= std::uint64_t(static_cast<unsigned char>(s[i])) << (8 * i);
    return v;
  }
  std::uint8_t u8(std::string_view what) { return static_cast<std::uint8_t>(little_endian(1, what)); }
  std::uint32_t u32(std::string_view what) { return static_cast<std::uint32_t>(little_endian(4, what)); }
  std::uint64_t u64(std::string_view what) { return little_endian(8, what); }
  std::string str(std::string_view what) { return std::string(take(u32(what), what)); }
  std::string blob(std::string_view what) {
    const std::uint64_t size = u64(what);
    // Compared before any narrowing: a corrupt 64-bit length must not wrap on the way to take().
    if (!failed() && size > left()) {
      fail("truncated: " + std::string(what) + " needs " + std::to_string(size) + " bytes, " + std::to_string(left()) +
           " left");
      return {};
    }
    return std::string(take(static_cast<std::size_t>(size), what));
  }

 private:
  std::string_view bytes_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::optional<Diagnostic> error_;
};

LaunchDim read_dim(Reader& in, const std::string& what) {
  LaunchDim d;
  d.x = in.u32(what + ".x");
  d.y = in.u32(what + ".y");
  d.z = in.u32(what + ".z");
  if (!in.failed() && (d.x == 0 || d.y == 0 || d.z == 0)) in.fail(what + " has a zero dimension");
  return d;
}

// A count of records that each need at least `min_record` bytes: larger than what is left means
// a corrupt count, rejected before anything is reserved for it.
std::uint32_t read_count(Reader& in, std::string_view what, std::size_t min_record) {
  const std::size_t at = in.offset();
  const std::uint32_t count = in.u32(what);
  if (!in.failed() && std::uint64_t(count) * min_record > in.left())
    in.fail_at(at, "truncated: " + std::to_string(count) + " " + std::string(what) + " cannot fit in the " +
                       std::to_string(in.left()) + " bytes left");
  return count;
}

}  // namespace

std::uint64_t Capture::state_bytes() const {
  std::uint64_t total = 0;
  for (const CaptureBuffer& b : buffers) total += b.before.size();
  for (const CaptureGlobal& g : globals) total += g.before.size();
  return total;
}

std::string write_capture(const Capture& capture) {
  Writer out;
  out.raw(kCaptureMagic);
  out.str(capture.kernel);
  for (const LaunchDim& d : {capture.grid, capture.block}) {
    out.u32(d.x);
    out.u32(d.y);
    out.u32(d.z);
  }
  out.u64(capture.shared_bytes);
  out.u32(static_cast<std::uint32_t>(capture.params.size()));
  for (const CaptureParam& p : capture.params) {
    out.blob(p.bytes);
    out.u8(p.is_pointer ? kPointerParam : kValueParam);
    if (p.is_pointer) {
      out.u32(p.buffer);
      out.u64(p.offset);
    }
  }
  out.u32(static_cast<std::uint32_t>(capture.buffers.size()));
  for (const CaptureBuffer& b : capture.buffers) {
    out.u64(b.device_address);
    out.blob(b.before);
    out.blob(b.after);
  }
  out.u32(static_cast<std::uint32_t>(capture.globals.size()));
  for (const CaptureGlobal& g : capture.globals) {
    out.str(g.name);
    out.blob(g.before);
    out.blob(g.after);
  }
  return out.take();
}

Result<Capture> read_capture(std::string_view bytes, const std::string& file) {
  Reader in(bytes, file);
  Capture c;
  const std::string_view magic = in.take(kCaptureMagic.size(), "the magic");
  if (!in.failed() && magic != kCaptureMagic) {
    if (magic.substr(0, 6) == kCaptureMagic.substr(0, 6))
      in.fail_at(0, "capture format version '" + std::string(magic.substr(6)) +
                        "' is not supported (this build reads '" + std::string(kCaptureMagic.substr(6)) + "')");
    else
      in.fail_at(0, "not a gpuport tune capture (no GPTCAP01 magic)");
  }
  c.kernel = in.str("the kernel name");
  if (!in.failed() && c.kernel.empty()) in.fail("empty kernel name");
  c.grid = read_dim(in, "grid");
  c.block = read_dim(in, "block");
  c.shared_bytes = in.u64("shared_bytes");

  const std::uint32_t params = read_count(in, "params", 9);
  for (std::uint32_t i = 0; i < params && !in.failed(); ++i) {
    const std::string what = "param " + std::to_string(i);
    CaptureParam p;
    const std::size_t at = in.offset();
    p.bytes = in.blob(what);
    const std::size_t kind_at = in.offset();
    const std::uint8_t kind = in.u8(what + " kind");
    if (in.failed()) break;
    if (kind == kPointerParam) {
      if (p.bytes.size() != 8)
        in.fail_at(at, what + " is a pointer but " + std::to_string(p.bytes.size()) + " bytes long");
      p.is_pointer = true;
      p.buffer = in.u32(what + " buffer");
      p.offset = in.u64(what + " offset");
    } else if (kind != kValueParam) {
      in.fail_at(kind_at, what + " has unknown kind " + std::to_string(kind));
    }
    c.params.push_back(std::move(p));
  }

  const std::uint32_t buffers = read_count(in, "buffers", 24);
  for (std::uint32_t i = 0; i < buffers && !in.failed(); ++i) {
    const std::string what = "buffer " + std::to_string(i);
    CaptureBuffer b;
    b.device_address = in.u64(what + " address");
    b.before = in.blob(what + " before");
    const std::size_t after_at = in.offset();
    b.after = in.blob(what + " after");
    if (!in.failed() && b.after.size() != b.before.size())
      in.fail_at(after_at, what + " after is " + std::to_string(b.after.size()) + " bytes, before " +
                               std::to_string(b.before.size()));
    c.buffers.push_back(std::move(b));
  }

  const std::uint32_t globals = read_count(in, "globals", 20);
  for (std::uint32_t i = 0; i < globals && !in.failed(); ++i) {
    const std::string what = "global " + std::to_string(i);
    CaptureGlobal g;
    g.name = in.str(what + " name");
    if (!in.failed() && g.name.empty()) in.fail(what + " has an empty name");
    g.before = in.blob(what + " before");
    const std::size_t after_at = in.offset();
    g.after = in.blob(what + " after");
    if (!in.failed() && g.after.size() != g.before.size())
      in.fail_at(after_at, what + " (" + g.name + ") after is " + std::to_string(g.after.size()) + " bytes, before " +
                               std::to_string(g.before.size()));
    c.globals.push_back(std::move(g));
  }

  if (!in.failed() && in.left() != 0) in.fail(std::to_string(in.left()) + " unexpected bytes after the last global");
  // Pointer params are checked last: the buffers they name come after them in the file.
  for (std::size_t i = 0; i < c.params.size() && !in.failed(); ++i) {
    const CaptureParam& p = c.params[i];
    if (!p.is_pointer) continue;
    if (p.buffer >= c.buffers.size())
      in.fail("param " + std::to_string(i) + " points into buffer " + std::to_string(p.buffer) + " of " +
              std::to_string(c.buffers.size()));
    else if (p.offset > c.buffers[p.buffer].before.size())
      in.fail("param " + std::to_string(i) + " points " + std::to_string(p.offset) + " bytes into buffer " +
              std::to_string(p.buffer) + " of " + std::to_string(c.buffers[p.buffer].before.size()) + " bytes");
  }
  if (in.failed()) return in.take_error();
  return c;
}

}  // namespace gpuport::tune
