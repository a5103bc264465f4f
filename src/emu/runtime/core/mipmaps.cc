// Mipmapped arrays in the runtime's core: storage whose levels are ordinary arrays
// (core/arrays.cc), level l of a W x H x D array being max(1, W >> l) x max(1, H >> l) x
// max(1, D >> l) (layers are not halved), so each level works with the array copies and with
// texture and surface objects over one array.
#include "emu/runtime/core/images.h"

namespace gpuport::emu::hip {
namespace {

struct MipmapRecord {
  std::unique_ptr<hipMipmappedArray> handle;
  std::vector<hipArray*> levels;
};

// Under the runtime's lock.
std::map<const hipMipmappedArray*, MipmapRecord>& mipmaps() {
  static auto* m = new std::map<const hipMipmappedArray*, MipmapRecord>();
  return *m;
}

unsigned int floor_log2(std::size_t v) {
  unsigned int l = 0;
  while (v >>= 1) ++l;
  return l;
}

}  // namespace

// The level count is clamped to [1, 1 + floor(log2(largest side))], as CUDA's runtime does and
// HIP's documentation leaves open.
hipError_t create_mipmap(hipMipmappedArray_t* out, const hipChannelFormatDesc& desc, std::size_t width, std::size_t height,
                         std::size_t depth, unsigned int levels, unsigned int flags, bool driver) {
  if (!out || width == 0) return ret(hipErrorInvalidValue);
  const bool layered = flags & hipArrayLayered;
  const std::size_t largest = std::max({width, height, layered ? std::size_t{0} : depth});
  levels = std::clamp(levels, 1u, 1 + floor_log2(largest));
  MipmapRecord record;
  for (unsigned int l = 0; l < levels; ++l) {
    auto halve = [l](std::size_t side) { return side == 0 ? 0 : std::max<std::size_t>(1, side >> l); };
    hipArray* level = nullptr;
    const hipError_t e = create_array(&level, desc, halve(width), halve(height), layered ? depth : halve(depth), flags, driver);
    if (e != hipSuccess) {
      for (hipArray* a : record.levels) (void)destroy_array(a);
      return e;
    }
    record.levels.push_back(level);
  }
  const hipArray* first = record.levels.front();
  record.handle = std::make_unique<hipMipmappedArray>();
  hipMipmappedArray& m = *record.handle;
  m.data = first->data;
  m.desc = first->desc;
  m.type = first->type;
  m.width = static_cast<unsigned int>(width);
  m.height = static_cast<unsigned int>(height);
  m.depth = static_cast<unsigned int>(depth);
  m.min_mipmap_level = 0;
  m.max_mipmap_level = levels;  // HIP 5.2 stores the level count here
  m.flags = flags;
  m.format = first->Format;
  std::lock_guard lock(runtime().mutex);
  *out = record.handle.get();
  mipmaps()[*out] = std::move(record);
  return hipSuccess;
}

hipError_t mipmap_level(hipArray_t* out, hipMipmappedArray_const_t mipmap, unsigned int level) {
  if (!out || !mipmap) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto it = mipmaps().find(mipmap);
  if (it == mipmaps().end() || level >= it->second.levels.size()) return ret(hipErrorInvalidValue);
  *out = it->second.levels[level];
  return hipSuccess;
}

hipError_t destroy_mipmap(hipMipmappedArray_t mipmap) {
  MipmapRecord record;
  {
    std::lock_guard lock(runtime().mutex);
    auto it = mipmaps().find(mipmap);
    if (!mipmap || it == mipmaps().end()) return ret(hipErrorInvalidValue);
    record = std::move(it->second);
    mipmaps().erase(it);
  }
  // A level the program freed itself (CUDA and HIP leave that undefined) is not freed twice.
  for (hipArray* a : record.levels) (void)destroy_array(a);
  return hipSuccess;
}

bool is_mipmap(hipMipmappedArray_const_t mipmap) {
  std::lock_guard lock(runtime().mutex);
  return mipmaps().count(mipmap) != 0;
}

}  // namespace gpuport::emu::hip
