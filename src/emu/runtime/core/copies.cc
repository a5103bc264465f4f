// The operations that move and fill linear memory, as the core runs them: each copy form (1D,
// to and from symbols, pitched 3D) and memset is checked when it is issued (or when a graph node
// is made from it) and then run, in order, by run_operation. A range that is not the program's
// memory is reported with the call that named it. Array operands of a 3D copy go to
// core/arrays.cc.
#include "emu/runtime/core/queues.h"
#include "emu/runtime/core/images.h"

#include <cstring>

namespace gpuport::emu::hip {

hipError_t check_range(const char* call, const char* role, const void* p, size_t count, bool write) {
  if (count == 0) return hipSuccess;
  auto& rt = runtime();
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::string problem;
  {
    std::lock_guard lock(rt.mutex);
    // A block of the runtime's own (hipMalloc, hipHostMalloc, ...): the range must stay inside it.
    auto it = rt.allocations.upper_bound(address);
    if (it != rt.allocations.begin()) {
      --it;
      const size_t offset = address - it->first;
      if (offset < std::max<size_t>(it->second, 1)) {
        if (count <= it->second - offset) return hipSuccess;
        problem = fmt::format("runs {} bytes past the end of its block ({} of {} bytes at {:#x})", count - (it->second - offset),
                              rt.origin.count(it->first) ? rt.origin[it->first] : "allocation", it->second, it->first);
      }
    }
  }
  if (problem.empty()) {
    // Other memory the emulator knows (registered host memory, a code object's globals), or the
    // program's own host memory, as mapped with the access the copy needs.
    if (rt.memory.find(address, count) || host_memory_accessible(address, count, write)) return hipSuccess;
    problem = fmt::format("is neither an allocation nor memory the program may {} (nearest: {})", write ? "write" : "read",
                          rt.memory.describe_near(address));
  }
  rt.report_finding(fmt::format("{}: the {} [{:#x}, +{}) {}; returns hipErrorInvalidValue", call, role, address, count, problem));
  return ret(hipErrorInvalidValue);
}

hipError_t check_copy(const Copy1D& p, const char* call) {
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && (!p.dst || !p.src)) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_range(call, "destination", p.dst, p.count, true)) return e;
  return check_range(call, "source", p.src, p.count, false);
}

static hipError_t symbol_range(const void* symbol, size_t count, size_t offset, char** at) {
  size_t size = 0;
  char* p = static_cast<char*>(device_address_of(symbol, &size));
  if (!p) return ret(hipErrorInvalidSymbol);
  if (offset > size || count > size - offset) return ret(hipErrorInvalidValue);
  *at = p + offset;
  return hipSuccess;
}

hipError_t check_copy(const CopyFromSymbol& p, const char* call) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && !p.dst) return ret(hipErrorInvalidValue);
  return check_range(call, "destination", p.dst, p.count, true);
}

hipError_t check_copy(const CopyToSymbol& p, const char* call) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.count && !p.src) return ret(hipErrorInvalidValue);
  return check_range(call, "source", p.src, p.count, false);
}

hipError_t check_memset(const hipMemsetParams& p, const char* call) {
  if (!p.dst || p.height == 0) return ret(hipErrorInvalidValue);
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return ret(hipErrorInvalidValue);
  size_t row = 0, span = 0;
  if (__builtin_mul_overflow(p.width, p.elementSize, &row)) return ret(hipErrorInvalidValue);
  if (p.height > 1 && p.pitch < row) return ret(hipErrorInvalidValue);
  if (__builtin_mul_overflow(p.pitch, p.height - 1, &span) || __builtin_add_overflow(span, row, &span)) return ret(hipErrorInvalidValue);
  return check_range(call, "destination", p.dst, span, true);
}

hipError_t run_copy(const Copy1D& p) {
  if (p.count) std::memmove(p.dst, p.src, p.count);
  return hipSuccess;
}

hipError_t run_copy(const CopyFromSymbol& p) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.count) std::memmove(p.dst, at, p.count);
  return hipSuccess;
}

hipError_t run_copy(const CopyToSymbol& p) {
  char* at = nullptr;
  if (hipError_t e = symbol_range(p.symbol, p.count, p.offset, &at)) return e;
  if (p.count) std::memmove(at, p.src, p.count);
  return hipSuccess;
}

hipError_t run_memset(const hipMemsetParams& p) {
  const std::uint32_t bits = p.elementSize == 1 ? (p.value & 0xff) : p.elementSize == 2 ? (p.value & 0xffff) : p.value;
  const size_t row_bytes = p.width * p.elementSize;
  if (bits == 0 && (p.height == 1 || p.pitch == row_bytes)) {  // one span: the rows touch
    fill_zero(p.dst, row_bytes * p.height);
    return hipSuccess;
  }
  for (size_t row = 0; row < p.height; ++row) {
    char* line = static_cast<char*>(p.dst) + row * p.pitch;
    if (bits == 0) {  // the pages of a block nothing has written are zero already
      fill_zero(line, row_bytes);
      continue;
    }
    switch (p.elementSize) {
      case 1: std::memset(line, static_cast<int>(p.value & 0xff), p.width); break;
      case 2: std::fill_n(reinterpret_cast<std::uint16_t*>(line), p.width, static_cast<std::uint16_t>(p.value)); break;
      default: std::fill_n(reinterpret_cast<std::uint32_t*>(line), p.width, static_cast<std::uint32_t>(p.value)); break;
    }
  }
  return hipSuccess;
}

namespace {

// One side of a linear 3D copy: the byte at (x, y, z) is base + z * slice + y * pitch + x.
struct Side {
  char* base = nullptr;
  size_t pitch = 0, slice = 0;
};

Side side_of(const hipPitchedPtr& p, const hipPos& pos) {
  const size_t pitch = p.pitch;
  const size_t slice = pitch * p.ysize;
  return {static_cast<char*>(p.ptr) + pos.z * slice + pos.y * pitch + pos.x, pitch, slice};
}

// The x, y extent of one side must fit its pitch and rows (rows only matter between slices),
// and the bytes from its first to its last must be the program's memory.
hipError_t check_side(const hipPitchedPtr& p, const hipPos& pos, const hipExtent& e, const char* call, const char* role, bool write) {
  if (!p.ptr) return ret(hipErrorInvalidValue);
  const bool one_row = e.height == 1 && e.depth == 1;
  if (!(one_row && p.pitch == 0) && pos.x + e.width > p.pitch) return ret(hipErrorInvalidPitchValue);
  if (e.depth > 1 && pos.y + e.height > p.ysize) return ret(hipErrorInvalidValue);
  // first = (pos.z * ysize + pos.y) * pitch + pos.x; last = first + ((depth-1) * ysize + height-1) * pitch + width
  size_t first = 0, rows = 0, span = 0;
  if (__builtin_mul_overflow(pos.z, p.ysize, &first) || __builtin_add_overflow(first, pos.y, &first) ||
      __builtin_mul_overflow(first, p.pitch, &first) || __builtin_add_overflow(first, pos.x, &first) ||
      __builtin_mul_overflow(e.depth - 1, p.ysize, &rows) || __builtin_add_overflow(rows, e.height - 1, &rows) ||
      __builtin_mul_overflow(rows, p.pitch, &span) || __builtin_add_overflow(span, e.width, &span))
    return ret(hipErrorInvalidValue);
  return check_range(call, role, static_cast<const char*>(p.ptr) + first, span, write);
}

}  // namespace

hipError_t check_copy(const hipMemcpy3DParms& p, const char* call) {
  if (p.srcArray || p.dstArray) return hipSuccess;  // copy_3d_with_arrays (arrays.cc) checks those
  if (p.kind < hipMemcpyHostToHost || p.kind > hipMemcpyDefault) return ret(hipErrorInvalidMemcpyDirection);
  if (p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0) return hipSuccess;
  if (hipError_t e = check_side(p.srcPtr, p.srcPos, p.extent, call, "source", false)) return e;
  return check_side(p.dstPtr, p.dstPos, p.extent, call, "destination", true);
}

hipError_t run_copy(const hipMemcpy3DParms& p) {
  if (p.srcArray || p.dstArray) return copy_3d_with_arrays(p);
  if (p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0) return hipSuccess;
  const Side src = side_of(p.srcPtr, p.srcPos), dst = side_of(p.dstPtr, p.dstPos);
  for (size_t z = 0; z < p.extent.depth; ++z)
    for (size_t y = 0; y < p.extent.height; ++y)
      std::memmove(dst.base + z * dst.slice + y * dst.pitch, src.base + z * src.slice + y * src.pitch, p.extent.width);
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
