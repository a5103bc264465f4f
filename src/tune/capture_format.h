// The capture file of `gpuport tune`: one kernel launch as a CUDA program made it (launch
// geometry, parameter bytes, and every buffer and module global the launch can touch, before and
// after), so that tune/device/harness.cc can replay it for each candidate cubin and check the
// outputs. Promise: any bytes in, no crash and no read out of bounds; a truncated or corrupt file
// gives one error diagnostic naming the file and the byte offset, and no capture.
//
// Layout (version 1, little-endian; "str" = u32 length + bytes, "blob" = u64 length + bytes):
//   "GPTCAP01"  str kernel  u32 grid[3]  u32 block[3]  u64 shared_bytes
//   u32 params   { blob bytes  u8 kind (0 value, 1 pointer)  [pointer: u32 buffer  u64 offset] }
//   u32 buffers  { u64 device_address  blob before  blob after (same length) }
//   u32 globals  { str name  blob before  blob after (same length) }
// and nothing after. tune/device/capture.cc writes the same layout without this library (it is
// compiled into the user's program as C++14); a unit test reads what its writer makes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::tune {

inline constexpr std::string_view kCaptureMagic = "GPTCAP01";

struct LaunchDim {
  std::uint32_t x = 1, y = 1, z = 1;
  friend bool operator==(const LaunchDim&, const LaunchDim&) = default;
};

// One kernel parameter as the program passed it. A pointer parameter (a device pointer into one
// of the captured allocations) also says where it points, so that a replay can relocate it into
// its own copy of that allocation. Pointers stored inside buffers are not relocated.
struct CaptureParam {
  std::string bytes;
  bool is_pointer = false;
  std::uint32_t buffer = 0;  // index into Capture::buffers
  std::uint64_t offset = 0;  // bytes past that buffer's device_address (<= its size)
  friend bool operator==(const CaptureParam&, const CaptureParam&) = default;
};

// A whole device allocation that a pointer parameter points into.
struct CaptureBuffer {
  std::uint64_t device_address = 0;  // the allocation's base as the program saw it
  std::string before, after;         // contents right before and right after the launch
  friend bool operator==(const CaptureBuffer&, const CaptureBuffer&) = default;
};

// A module-scope __device__ or __constant__ variable, by mangled name.
struct CaptureGlobal {
  std::string name;
  std::string before, after;
  friend bool operator==(const CaptureGlobal&, const CaptureGlobal&) = default;
};

struct Capture {
  std::string kernel;  // mangled name
  LaunchDim grid, block;
  std::uint64_t shared_bytes = 0;  // dynamic shared memory of the launch
  std::vector<CaptureParam> params;
  std::vector<CaptureBuffer> buffers;
  std::vector<CaptureGlobal> globals;

  // Bytes of device state in one snapshot (all buffers and globals).
  std::uint64_t state_bytes() const;
  friend bool operator==(const Capture&, const Capture&) = default;
};

// The file's bytes. The caller keeps before/after of equal length and pointer params 8 bytes
// long, pointing inside an existing buffer (read_capture rejects anything else).
std::string write_capture(const Capture& capture);

// Parses a capture file; `file` names it in diagnostics (code "bad-capture", the message
// carries the byte offset where reading stopped).
Result<Capture> read_capture(std::string_view bytes, const std::string& file);

}  // namespace gpuport::tune
