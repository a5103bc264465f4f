// Mipmapped arrays of the emulator's HIP runtime: storage whose levels are ordinary hipArrays
// (arrays.cc), level l of a W x H x D array being max(1, W >> l) x max(1, H >> l) x max(1, D >> l)
// (layers are not halved), so each level works with the array copies and with texture and
// surface objects over one array. Sampling across levels is another matter: HIP 5.2 refuses
// textures over a whole mipmapped array (ihipCreateTextureObject: "Mipmaps are currently not
// supported", hipErrorNotSupported), and so do hipBindTextureToMipmappedArray and
// hipTexRefSetMipmappedArray here, as textures.cc does for hipResourceTypeMipmappedArray.
// hipMemMapArrayAsync (sparse arrays and mipmaps, backed by hipMemCreate memory) is refused as
// HIP 5.2 refuses it.
#include <functional>

#include "emu/runtime/runtime.h"

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

// Makes the levels with `make_level(level, width, height, depth)`; the level count is clamped to
// [1, 1 + floor(log2(largest side))], as CUDA's runtime does and HIP's documentation leaves open.
hipError_t create(hipMipmappedArray_t* out, std::size_t width, std::size_t height, std::size_t depth, unsigned int levels,
                  unsigned int flags, const std::function<hipError_t(hipArray**, std::size_t, std::size_t, std::size_t)>& make_level) {
  if (!out || width == 0) return ret(hipErrorInvalidValue);
  const bool layered = flags & hipArrayLayered;
  const std::size_t largest = std::max({width, height, layered ? std::size_t{0} : depth});
  levels = std::clamp(levels, 1u, 1 + floor_log2(largest));
  MipmapRecord record;
  for (unsigned int l = 0; l < levels; ++l) {
    auto halve = [l](std::size_t side) { return side == 0 ? 0 : std::max<std::size_t>(1, side >> l); };
    hipArray* level = nullptr;
    const hipError_t e = make_level(&level, halve(width), halve(height), layered ? depth : halve(depth));
    if (e != hipSuccess) {
      for (hipArray* a : record.levels) (void)hipFreeArray(a);
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

hipError_t level_of(hipArray_t* out, hipMipmappedArray_const_t mipmap, unsigned int level) {
  if (!out || !mipmap) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  auto it = mipmaps().find(mipmap);
  if (it == mipmaps().end() || level >= it->second.levels.size()) return ret(hipErrorInvalidValue);
  *out = it->second.levels[level];
  return hipSuccess;
}

hipError_t destroy(hipMipmappedArray_t mipmap) {
  MipmapRecord record;
  {
    std::lock_guard lock(runtime().mutex);
    auto it = mipmaps().find(mipmap);
    if (!mipmap || it == mipmaps().end()) return ret(hipErrorInvalidValue);
    record = std::move(it->second);
    mipmaps().erase(it);
  }
  // A level the program freed itself (CUDA and HIP leave that undefined) is not freed twice.
  for (hipArray* a : record.levels) (void)hipFreeArray(a);
  return hipSuccess;
}

bool is_mipmap(hipMipmappedArray_const_t mipmap) {
  std::lock_guard lock(runtime().mutex);
  return mipmaps().count(mipmap) != 0;
}

constexpr const char* kNoMipmapTextures = "textures over whole mipmapped arrays are not supported (nor by HIP 5.2)";

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

hipError_t hipMallocMipmappedArray(hipMipmappedArray_t* out, const hipChannelFormatDesc* desc, hipExtent extent, unsigned int levels,
                                   unsigned int flags) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create(out, extent.width, extent.height, extent.depth, levels, flags,
                [&](hipArray** level, std::size_t w, std::size_t h, std::size_t d) {
                  return hipMalloc3DArray(level, desc, make_hipExtent(w, h, d), flags);
                });
}
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* out, HIP_ARRAY3D_DESCRIPTOR* desc, unsigned int levels) {
  if (!desc) return ret(hipErrorInvalidValue);
  return create(out, desc->Width, desc->Height, desc->Depth, levels, desc->Flags,
                [&](hipArray** level, std::size_t w, std::size_t h, std::size_t d) {
                  HIP_ARRAY3D_DESCRIPTOR one = *desc;
                  one.Width = w;
                  one.Height = h;
                  one.Depth = d;
                  return hipArray3DCreate(level, &one);
                });
}
hipError_t hipGetMipmappedArrayLevel(hipArray_t* out, hipMipmappedArray_const_t mipmap, unsigned int level) {
  return level_of(out, mipmap, level);
}
hipError_t hipMipmappedArrayGetLevel(hipArray_t* out, hipMipmappedArray_t mipmap, unsigned int level) {
  return level_of(out, mipmap, level);
}
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmap) { return destroy(mipmap); }
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t mipmap) { return destroy(mipmap); }

hipError_t hipBindTextureToMipmappedArray(const textureReference* ref, hipMipmappedArray_const_t mipmap, const hipChannelFormatDesc* desc) {
  if (!ref || !mipmap || !desc || !is_mipmap(mipmap)) return ret(hipErrorInvalidValue);
  return refuse("hipBindTextureToMipmappedArray", kNoMipmapTextures, hipErrorNotSupported);
}
hipError_t hipTexRefSetMipmappedArray(textureReference* ref, hipMipmappedArray* mipmap, unsigned int flags) {
  // HIP 5.2 takes only HIP_TRSA_OVERRIDE_FORMAT here.
  if (!ref || !mipmap || flags != HIP_TRSA_OVERRIDE_FORMAT || !is_mipmap(mipmap)) return ret(hipErrorInvalidValue);
  return refuse("hipTexRefSetMipmappedArray", kNoMipmapTextures, hipErrorNotSupported);
}

hipError_t hipMemMapArrayAsync(hipArrayMapInfo* list, unsigned int count, hipStream_t) {
  if (!list || count == 0) return ret(hipErrorInvalidValue);
  return refuse("hipMemMapArrayAsync", "sparse arrays are not supported (nor by HIP 5.2)", hipErrorNotSupported);
}
