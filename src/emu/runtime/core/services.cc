// Hostcalls: how device code asks the host for a service — device printf (and the message of a
// failed assert), and device malloc/free beyond the heap's own slabs. The device libraries clang
// links into HIP kernels (rocm-device-libs' ockl) define the protocol; this is the host side of
// it, written from the protocol's facts:
//
//   buffer   { headers*, payloads*, doorbell signal*, free stack, ready stack, index mask }
//   header   { next (tagged index), active lane mask, service id, control (bit 0: READY) }
//   payload  64 lanes x 8 u64 slots
//
// A wave takes a free packet, fills its lanes' slots, pushes the packet on the ready stack, adds
// to the doorbell signal and, because the signal has an event mailbox, raises MSG_INTERRUPT
// (s_sendmsg). The emulator calls serve() right there, on the wave's own thread, so the packet is
// answered (READY cleared) before the wave looks again: output is in program order and nothing
// polls. Services: 1 function call, 2 printf (a message spread over several packets: slot 0 is a
// descriptor with BEGIN/END flags, a length and a message id), 3 device memory (allocate
// slot 1 bytes when slot 0 is 0, else free slot 0).
#include <cstring>

#include "emu/runtime/core/runtime.h"

namespace gpuport::emu::hip {
namespace {

constexpr std::uint32_t kPackets = 256;  // more than the waves that can be in a hostcall at once
constexpr std::uint32_t kServiceFunctionCall = 1, kServicePrintf = 2, kServiceDeviceMemory = 3;

struct BufferHeader {  // what device code reads at the buffer's address
  std::uint64_t headers, payloads, doorbell, free_stack, ready_stack, index_mask;
};
struct PacketHeader {
  std::uint64_t next, active_mask;
  std::uint32_t service, control;
};
struct Payload {
  std::uint64_t slots[64][8];
};
struct Signal {  // amd_signal_t as the device library reads it
  std::int64_t kind;
  std::int64_t value;
  std::uint64_t event_mailbox;
  std::uint32_t event_id, reserved0;
  std::uint64_t reserved[4];
};
static_assert(sizeof(Signal) == 64);

// One printf message, formatted by the C library one conversion at a time from the 64-bit
// argument words: format string, then each argument in a word (strings padded to words).
class PrintfMessage {
 public:
  PrintfMessage(const std::uint64_t* words, std::size_t count) : at_(words), end_(words + count) {}

  // The formatted text; missing arguments read as 0, as a C library's would read garbage.
  std::string format() {
    std::string out;
    const char* fmt = next_string();
    if (!fmt) return out;
    for (const char* p = fmt; *p;) {
      if (*p != '%') {
        out += *p++;
        continue;
      }
      if (p[1] == '%') {
        out += '%';
        p += 2;
        continue;
      }
      // %[flags][width][.precision][length]conversion
      const char* start = p++;
      std::string spec = "%";
      std::vector<int> stars;
      while (*p && std::strchr("-+ #0'", *p)) spec += *p++;
      auto number_or_star = [&] {
        if (*p == '*') {
          stars.push_back(static_cast<int>(next_word()));
          spec += '*';
          ++p;
        } else {
          while (*p >= '0' && *p <= '9') spec += *p++;
        }
      };
      number_or_star();
      if (*p == '.') {
        spec += *p++;
        number_or_star();
      }
      std::string length;
      while (*p && std::strchr("hljztL", *p)) length += *p++;
      const char conversion = *p ? *p++ : 0;
      if (!conversion || !std::strchr("diouxXcfFeEgGaAspn", conversion)) {
        out.append(start, p);  // not a conversion: printed as written
        continue;
      }
      out += convert(spec, length, conversion, stars);
    }
    return out;
  }

 private:
  std::uint64_t next_word() { return at_ < end_ ? *at_++ : 0; }

  const char* next_string() {
    if (at_ >= end_) return nullptr;
    const char* s = reinterpret_cast<const char*>(at_);
    const std::size_t max = static_cast<std::size_t>(end_ - at_) * 8;
    const std::size_t n = strnlen(s, max);
    if (n == max) {  // no terminator inside the message
      at_ = end_;
      return nullptr;
    }
    at_ += (n + 1 + 7) / 8;
    return s;
  }

  template <typename T>
  std::string with_stars(const std::string& spec, const std::vector<int>& stars, T value) {
    char buffer[512];
    int n = 0;
    if (stars.empty()) n = std::snprintf(buffer, sizeof buffer, spec.c_str(), value);
    else if (stars.size() == 1) n = std::snprintf(buffer, sizeof buffer, spec.c_str(), stars[0], value);
    else n = std::snprintf(buffer, sizeof buffer, spec.c_str(), stars[0], stars[1], value);
    if (n < 0) return {};
    if (static_cast<std::size_t>(n) < sizeof buffer) return std::string(buffer, static_cast<std::size_t>(n));
    std::string big(static_cast<std::size_t>(n) + 1, '\0');
    if (stars.empty()) std::snprintf(big.data(), big.size(), spec.c_str(), value);
    else if (stars.size() == 1) std::snprintf(big.data(), big.size(), spec.c_str(), stars[0], value);
    else std::snprintf(big.data(), big.size(), spec.c_str(), stars[0], stars[1], value);
    big.pop_back();
    return big;
  }

  // One conversion: the argument word reinterpreted as the C type the length modifier names.
  std::string convert(std::string spec, const std::string& length, char conversion, const std::vector<int>& stars) {
    switch (conversion) {
      case 'd':
      case 'i': {
        const std::uint64_t w = next_word();
        long long v = static_cast<long long>(w);
        if (length == "hh") v = static_cast<signed char>(w);
        else if (length == "h") v = static_cast<short>(w);
        else if (length.empty()) v = static_cast<int>(w);
        return with_stars(spec + "ll" + conversion, stars, v);
      }
      case 'o':
      case 'u':
      case 'x':
      case 'X': {
        const std::uint64_t w = next_word();
        unsigned long long v = w;
        if (length == "hh") v = static_cast<unsigned char>(w);
        else if (length == "h") v = static_cast<unsigned short>(w);
        else if (length.empty()) v = static_cast<unsigned>(w);
        return with_stars(spec + "ll" + conversion, stars, v);
      }
      case 'c': return with_stars(spec + conversion, stars, static_cast<int>(next_word()));
      case 'p': return with_stars(spec + conversion, stars, reinterpret_cast<void*>(next_word()));
      case 's': {
        const char* s = next_string();
        return with_stars(spec + conversion, stars, s ? s : "(null)");
      }
      case 'n': next_word(); return {};
      default: {  // floating point: float arguments arrive promoted to double
        const std::uint64_t w = next_word();
        double d;
        std::memcpy(&d, &w, 8);
        return with_stars(spec + conversion, stars, d);
      }
    }
  }

  const std::uint64_t* at_;
  const std::uint64_t* end_;
};

class Hostcall {
 public:
  std::uint64_t buffer() {
    std::lock_guard lock(mutex_);
    if (!buffer_) create();
    return buffer_;
  }

  static void interrupt(void* self, std::uint32_t) { static_cast<Hostcall*>(self)->serve(); }

 private:
  void create() {
    const std::size_t headers = sizeof(BufferHeader), payloads = (headers + kPackets * sizeof(PacketHeader) + 4095) / 4096 * 4096;
    auto* base = static_cast<std::uint8_t*>(allocate(payloads + kPackets * sizeof(Payload), AddressSpace::Kind::device, "hostcall buffer"));
    auto* header = reinterpret_cast<BufferHeader*>(base);
    header->headers = reinterpret_cast<std::uint64_t>(base + headers);
    header->payloads = reinterpret_cast<std::uint64_t>(base + payloads);
    header->index_mask = kPackets - 1;
    // The free stack links every packet; its tagged pointers never are 0 (packet 0 is reached
    // through a pointer tagged with index_mask + 1).
    auto* packets = reinterpret_cast<PacketHeader*>(header->headers);
    std::uint64_t next = header->index_mask + 1;
    packets[0].next = 0;
    for (std::uint32_t i = 1; i < kPackets; ++i) {
      packets[i].next = next;
      next = i;
    }
    header->free_stack = next;
    header->ready_stack = 0;
    auto* signal = static_cast<Signal*>(allocate(sizeof(Signal) + 8, AddressSpace::Kind::device, "hostcall doorbell"));
    signal->kind = 1;
    signal->value = 1;
    signal->event_mailbox = reinterpret_cast<std::uint64_t>(signal + 1);  // the 8 bytes after it
    signal->event_id = 1;
    header->doorbell = reinterpret_cast<std::uint64_t>(signal);
    buffer_ = reinterpret_cast<std::uint64_t>(base);
  }

  void serve() {
    std::lock_guard lock(mutex_);
    if (!buffer_) return;
    auto* header = reinterpret_cast<BufferHeader*>(buffer_);
    auto* packets = reinterpret_cast<PacketHeader*>(header->headers);
    auto* payloads = reinterpret_cast<Payload*>(header->payloads);
    std::uint64_t ready = __atomic_exchange_n(&header->ready_stack, 0, __ATOMIC_ACQUIRE);
    // The stack holds the newest packet first; each wave has at most one packet in flight, so
    // the order between packets does not matter to any one wave's output.
    while (ready) {
      const std::uint64_t index = ready & header->index_mask;
      PacketHeader& packet = packets[index];
      ready = packet.next;
      for (std::uint64_t mask = packet.active_mask; mask; mask &= mask - 1) {
        const unsigned lane = static_cast<unsigned>(__builtin_ctzll(mask));
        handle(packet.service, payloads[index].slots[lane]);
      }
      __atomic_fetch_and(&packet.control, ~1u, __ATOMIC_RELEASE);
    }
  }

  void handle(std::uint32_t service, std::uint64_t* slot) {
    switch (service) {
      case kServicePrintf: return append(slot);
      case kServiceDeviceMemory: {
        if (slot[0]) {
          (void)release(reinterpret_cast<void*>(slot[0]));
        } else {
          void* p = allocate(slot[1], AddressSpace::Kind::device, "device malloc");
          slot[0] = reinterpret_cast<std::uint64_t>(p);
        }
        return;
      }
      case kServiceFunctionCall: {
        // slot 0: a host function void f(uint64_t out[2], const uint64_t in[7]).
        using Function = void (*)(std::uint64_t*, const std::uint64_t*);
        std::uint64_t out[2] = {0, 0};
        if (slot[0]) reinterpret_cast<Function>(slot[0])(out, slot + 1);
        slot[0] = out[0];
        slot[1] = out[1];
        return;
      }
      default: runtime().fail(fmt::format("a kernel asked for hostcall service {}, which no HIP runtime provides", service));
    }
  }

  // A printf message packet: descriptor (bit 0 BEGIN, bit 1 END, bits 5-7 words in this packet,
  // bits 8-63 message id) and up to 7 words.
  void append(std::uint64_t* slot) {
    std::uint64_t descriptor = slot[0];
    const bool begin = descriptor & 1, end = descriptor & 2;
    const unsigned words = static_cast<unsigned>((descriptor >> 5) & 7);
    std::uint64_t id;
    if (begin) {
      id = next_message_++;
      messages_[id].clear();
      descriptor = (descriptor & 0xff & ~1ull) | id << 8;
      slot[0] = descriptor;
    } else {
      id = descriptor >> 8;
    }
    auto it = messages_.find(id);
    if (it == messages_.end()) runtime().fail("a device printf continued a message that was never begun (corrupt hostcall packet)");
    it->second.insert(it->second.end(), slot + 1, slot + 1 + words);
    if (!end) return;
    const std::vector<std::uint64_t> message = std::move(it->second);
    messages_.erase(it);
    // Word 0: control (bit 0: to stderr); then format string and arguments.
    if (message.empty() || (message[0] & ~1ull)) {
      slot[0] = static_cast<std::uint64_t>(-1);
      return;
    }
    const std::string text = PrintfMessage(message.data() + 1, message.size() - 1).format();
    FILE* stream = (message[0] & 1) ? stderr : stdout;
    std::fwrite(text.data(), 1, text.size(), stream);
    if (stream == stderr) std::fflush(stderr);
    slot[0] = text.size();
  }

  std::mutex mutex_;
  std::uint64_t buffer_ = 0;
  std::uint64_t next_message_ = 1;
  std::map<std::uint64_t, std::vector<std::uint64_t>> messages_;
};

Hostcall& hostcall_service() {
  static Hostcall* h = new Hostcall();  // outlives the program's static destructors
  return *h;
}

}  // namespace

void attach_services(const amdgpu::Kernel& kernel, Launch& launch) {
  for (const auto& a : kernel.arguments) {
    if (a.value_kind == "hidden_hostcall_buffer") {
      launch.hostcall_buffer = hostcall_service().buffer();
      launch.interrupt = &Hostcall::interrupt;
      launch.interrupt_user = &hostcall_service();
    } else if (a.value_kind == "hidden_heap_v1") {
      launch.heap = device_heap();
    }
  }
}

std::uint64_t device_heap() {
  // The device library's malloc keeps its slab directory here (about 100 KiB, zeroed before first
  // use) and asks the host for slabs through hostcall service 3.
  static const std::uint64_t heap = reinterpret_cast<std::uint64_t>(allocate(128 << 10, AddressSpace::Kind::device, "device heap"));
  return heap;
}

}  // namespace gpuport::emu::hip
