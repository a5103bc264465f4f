// Turns any SASS input into disassembler text: a .cu (compiled per arch with that arch's
// toolchain), a cubin (nvdisasm of the toolchain that made it), an executable, object or
// fatbinary (cuobjdump -sass), or text that already is an nvdisasm/cuobjdump listing.
// Promise: tools only through sass/toolchain.h; failures are diagnostics that say which tool
// and what to install, and temporary files are removed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "sass/program.h"
#include "sass/toolchain.h"

namespace gpuport::sass {

enum class InputKind { cuda_source, cubin, binary, listing, unknown_binary };
std::string_view input_kind_name(InputKind kind);

// By content first (ELF with CUDA OSABI: cubin; other ELF or fatbinary magic: binary; NUL
// bytes: unknown_binary), then by extension (.cu: cuda_source); anything else is a listing.
InputKind classify_input(const std::filesystem::path& path, std::string_view bytes);

struct ListingRequest {
  std::vector<int> archs;                  // for .cu inputs; empty: default_archs()
  std::optional<ToolchainId> toolchain;    // std::nullopt: the arch's or the cubin's own
  CompileOptions compile;
  std::filesystem::path save_dir;          // when set, cubins and listings are kept here
  // Disassemble CUDA 11.8 cubins with CUDA 13's nvdisasm when it is installed: 11.8's prints only
  // the encoding of a few sm_90 instructions (VIMNMX, ...), which a reader of the text (the lifter)
  // cannot use. The listing says which tools made it.
  bool prefer_newest_disassembler = false;
};

struct Listing {
  std::string name;             // for diagnostics: "if_else.cu@sm_80" or the file itself
  int arch = 0;                 // 0: the listing says (or holds several)
  std::optional<ToolchainId> toolchain;  // set when a tool made the text
  std::string tools;            // "nvcc 11.8, nvdisasm 11.8"
  std::string text;
  std::string cubin;            // the cubin's bytes when the text is its nvdisasm listing (jump tables)
  std::string cubin_name;       // for the cubin reader's diagnostics; empty: `name`
};

struct ListingResult {
  std::vector<Listing> listings;
  std::vector<Diagnostic> diagnostics;  // errors: a tool missing or failing, unreadable input
};

// `bytes` is the file's content (already read).
ListingResult obtain_listings(const std::filesystem::path& path, std::string_view bytes, const ListingRequest& request);

// Text listings may hold instructions the disassembler that wrote them could not decode (CUDA
// 11.8's cuobjdump and nvdisasm print only the encoding of a few sm_90 instructions). Where every
// instruction of such a function came with its encoding and a newer nvdisasm is installed, the
// function's code is disassembled again from those encodings and the undecoded instructions take
// the newer tool's text. Returns what could not be done (warnings) when there was something to do.
std::vector<Diagnostic> redecode_undecoded(SassProgram& program, int arch, const std::string& listing_name);

}  // namespace gpuport::sass
