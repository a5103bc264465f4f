#include <atomic>
#include <map>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/json.h"
#include "common/plain_paths.h"
#include "maps/api_map.h"
#include "source/compile_db.h"
#include "source/project.h"
#include "verify/compile_check.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct TranslateArguments {
  std::vector<std::string> inputs;
  std::string output_dir;
  bool in_place = false;
  bool no_backup = false;
  bool dry_run = false;
  std::string report_format = "text";
  std::string report_file;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool fix_warp_size = false;
  std::string launch = "keep";
  bool hip_kernel_execution_syntax = false;
  bool cuda_kernel_execution_syntax = false;
  bool hipify_style = false;
  bool skip_excluded = false;
  bool default_preprocessor = false;
  bool amap = false;
  bool experimental = false;
  bool use_hip_data_types = false;
  bool roc = false;
  std::string hip_version = std::string(verify::kDefaultHipVersion);
  std::string to = "hip";
  bool keep_platform_macros = false;
  std::string project;
  std::vector<std::string> defines;
  std::vector<std::string> undefines;
  bool no_runtime_include = false;
  bool no_follow_includes = false;
  std::vector<std::string> include_dirs;
  std::string compile_db;
  bool check = false;
  std::string check_targets = "amd,nvidia";
  std::string device_lib_dir;
  std::string nvcc = "/usr/bin/nvcc";
  std::string clang = "clang++-19";
  std::string nvidia_arch = "sm_90";
  std::string maps_dir;
  std::uint64_t max_file_size = 128ull << 20;
  bool progress = true;
  bool quiet = false;
};

int run_translate(const TranslateArguments& a) {
  auto usage = [](const std::string& message) {
    std::fprintf(stderr, "gpuport translate: %s\n", message.c_str());
    return 2;
  };
  if (a.in_place && !a.output_dir.empty()) return usage("--in-place and -o cannot be used together");
  if (a.dry_run && (a.in_place || !a.output_dir.empty())) return usage("--dry-run writes nothing: drop -o / --in-place");
  if (a.dry_run && a.check) return usage("--check compiles the written translation: it cannot be used with --dry-run");
  if (a.no_backup && !a.in_place) return usage("--no-backup only applies to --in-place");
  if (a.report_format != "text" && a.report_format != "json" && a.report_format != "sarif")
    return usage("--report must be text, json or sarif");
  if (a.launch != "keep" && a.launch != "ggl") return usage("--launch must be keep or ggl");
  if (a.to != "hip" && a.to != "cuda") return usage("--to must be hip or cuda");
  const bool to_cuda = a.to == "cuda";
  if (to_cuda && (a.roc || a.hipify_style || a.launch != "keep" || a.hip_kernel_execution_syntax || a.fix_warp_size))
    return usage("--roc, --hipify-style, --launch, --hip-kernel-execution-syntax and --fix-warp-size apply to CUDA -> HIP, not --to cuda");
  if (to_cuda && a.check_targets.find("nvidia") == std::string::npos)
    return usage("--to cuda checks with nvcc only (--check-targets nvidia)");
  // hipify-clang's names for --launch; with both, hipify-clang rewrites (so does gpuport).
  std::string launch = a.launch;
  if (a.cuda_kernel_execution_syntax) launch = "keep";
  if (a.hip_kernel_execution_syntax) launch = "ggl";

  // The HIP to translate for: its names (the default tables are HIP 5.2's, newer HIPs add their
  // layers, data/maps/hip-<version>/) and the compilers --check uses.
  const auto hip = verify::hip_target(a.hip_version);
  if (!hip) return usage(fmt::format("--hip-version must be one of {}", fmt::join(verify::hip_versions(), ", ")));
  const maps::LoadOptions load{.roc = a.roc, .hip_version = hip->map_layer()};
  auto map = a.maps_dir.empty() ? maps::ApiMap::load_embedded(load) : maps::ApiMap::load_directory(a.maps_dir, load);
  if (!map) {
    for (const auto& d : map.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  // HIP -> CUDA: the same tables, read the other way; the --roc tables too, for code written
  // against rocBLAS, rocSPARSE, rocRAND and rocSOLVER directly.
  if (to_cuda) {
    maps::ApiMap back = map->reversed();
    maps::LoadOptions with_roc = load;
    with_roc.roc = true;
    auto roc = a.maps_dir.empty() ? maps::ApiMap::load_embedded(with_roc) : maps::ApiMap::load_directory(a.maps_dir, with_roc);
    if (roc) back.add_missing(roc->reversed());
    *map = std::move(back);
  }

  source::ProjectOptions options;
  options.translate.fix_warp_size = a.fix_warp_size;
  options.translate.launch_style =
      launch == "ggl" ? source::LaunchStyle::hip_launch_kernel_ggl : source::LaunchStyle::keep;
  options.translate.hipify_style = a.hipify_style;
  // hipify-clang: --default-preprocessor is --skip-excluded-preprocessor-conditional-blocks,
  // and --amap ("as much as possible") overrides --default-preprocessor.
  options.translate.skip_excluded_groups = a.skip_excluded || (a.default_preprocessor && !a.amap);
  options.translate.preprocessor.defines = a.defines;
  options.translate.preprocessor.undefines = a.undefines;
  options.translate.add_runtime_include = !a.no_runtime_include && !to_cuda;
  options.translate.to_cuda = to_cuda;
  options.translate.keep_platform_macros = a.keep_platform_macros;
  if (a.keep_platform_macros && !to_cuda) return usage("--keep-platform-macros applies to --to cuda");
  options.follow_includes = !a.no_follow_includes;
  for (const auto& d : a.include_dirs) options.include_dirs.emplace_back(d);
  options.jobs = a.jobs;
  options.max_file_size = a.max_file_size;
  options.backup = !a.no_backup;

  std::vector<fs::path> inputs(a.inputs.begin(), a.inputs.end());
  std::map<fs::path, std::vector<std::string>> check_flags;  // -p: each source's flags for --check
  if (!a.project.empty()) {
    // A whole project: its sources and its build (CMakeLists.txt, *.cmake).
    inputs.insert(inputs.begin(), fs::path(a.project));
    options.translate_build_files = true;
    options.cmake.to_cuda = to_cuda;
    if (!hip->root.empty() && !hip->unavailable()) {  // the unpacked HIP the build is for
      std::error_code ec;
      options.cmake.hip_root = fs::absolute(hip->root, ec).lexically_normal().string();
      options.cmake.hip_version = hip->version;
    }
    verify::CompileCheckOptions where;
    where.device_lib_dir = a.device_lib_dir;
    const fs::path libs = verify::resolve_device_lib_dir(where);
    std::error_code ec;
    if (!libs.empty() && fs::exists(libs / "oclc_isa_version_1100.bc", ec)) options.cmake.device_lib_dir = fs::absolute(libs, ec).string();
  }
  if (inputs.empty()) return usage("give the files or folders to translate, or --project DIR");
  if (!a.compile_db.empty()) {
    // hipify-clang's -p: the -I/-D/-U of the database entries for the inputs apply to all of them.
    auto flags = source::read_compile_flags(a.compile_db, inputs);
    if (!flags) {
      for (const auto& d : flags.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 2;
    }
    if (flags->matched == 0 && !a.quiet)
      std::fprintf(stderr, "gpuport translate: note: %s names none of the inputs; no flags taken from it\n",
                   a.compile_db.c_str());
    // Each source the database names is translated with its own -D/-U and the #defines of its
    // -include headers (on top of the command line's); other files (headers followed from them)
    // with the union of all entries'.
    for (const auto& [file, own] : flags->by_file) {
      source::PreprocessorSettings s = options.translate.preprocessor;
      for (const auto& h : own.forced_includes)
        for (auto& d : source::header_defines(h)) s.defines.push_back(std::move(d));
      s.defines.insert(s.defines.end(), own.defines.begin(), own.defines.end());
      s.undefines.insert(s.undefines.end(), own.undefines.begin(), own.undefines.end());
      options.file_preprocessor[file] = std::move(s);
      std::vector<std::string> extra;
      for (const auto& d : own.defines) extra.push_back("-D" + d);
      for (const auto& d : own.undefines) extra.push_back("-U" + d);
      for (const auto& h : own.forced_includes) extra.insert(extra.end(), {"-include", h.string()});
      if (!own.standard.empty()) extra.push_back(own.standard);
      check_flags[file] = std::move(extra);
    }
    for (auto& d : flags->include_dirs) options.include_dirs.push_back(std::move(d));
    for (auto& d : flags->defines) options.translate.preprocessor.defines.push_back(std::move(d));
    for (auto& d : flags->undefines) options.translate.preprocessor.undefines.push_back(std::move(d));
  }
  bool to_stdout = false;
  if (a.dry_run) {
    options.mode = source::OutputMode::none;
  } else if (a.in_place) {
    options.mode = source::OutputMode::in_place;
  } else if (!a.output_dir.empty()) {
    options.mode = source::OutputMode::directory;
    options.output_dir = fs::absolute(a.output_dir);
  } else {
    std::error_code ec;
    if (inputs.size() != 1 || fs::is_directory(inputs[0], ec))
      return usage("several inputs or a folder need -o DIR or --in-place; a single file goes to stdout");
    options.mode = source::OutputMode::memory;
    options.follow_includes = false;
    to_stdout = true;
  }

  // A progress line on a terminal for large trees.
  const bool show_progress = a.progress && !a.quiet && ::isatty(2);
  std::mutex progress_mutex;
  source::ProgressFunction progress;
  if (show_progress) {
    progress = [&](std::size_t done, std::size_t total) {
      if (total < 50) return;
      if (done != total && done % 16 != 0) return;
      std::lock_guard lock(progress_mutex);
      const int width = 30;
      const int filled = static_cast<int>(width * done / total);
      std::fprintf(stderr, "\r[%s%s] %zu/%zu files", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), done, total);
      if (done == total) std::fprintf(stderr, "\r%*s\r", width + 40, "");
      std::fflush(stderr);
    };
  }

  auto result = source::translate_project(inputs, *map, options, progress);
  auto& report = result.report;

  if (to_stdout && !report.files.empty() && report.files[0].translated) {
    const std::string& text = result.outputs[0];
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      std::fprintf(stderr, "gpuport translate: error: cannot write the translation to standard output: %s [io-error]\n",
                   std::strerror(errno));
      std::clearerr(stdout);  // said here: main need not say it again
      return 2;
    }
  }

  if (a.check) {
    verify::CompileCheckOptions copts;
    copts.hip = *hip;
    copts.clang = a.clang;
    copts.nvcc = a.nvcc;
    copts.nvidia_arch = a.nvidia_arch;
    copts.device_lib_dir = a.device_lib_dir;
    copts.amd = a.check_targets.find("amd") != std::string::npos && !to_cuda;
    copts.nvidia = a.check_targets.find("nvidia") != std::string::npos;
    copts.cuda_source = to_cuda;
    for (const auto& d : options.include_dirs) copts.include_dirs.push_back(d);  // -I and -p
    // Units to compile: the written outputs, or a temporary copy of stdout's text.
    std::vector<std::pair<std::size_t, fs::path>> units;
    TemporaryFolder private_folder;
    for (std::size_t i = 0; i < report.files.size(); ++i) {
      const auto& f = report.files[i];
      if (!f.translated) continue;
      if (!verify::is_compile_unit(f.input)) continue;
      if (to_stdout) {
        // The translation exists only in memory: a copy under the input's name in a private
        // folder, with the input's folder on the include path.
        if (private_folder.empty()) private_folder = TemporaryFolder::make("check");
        if (private_folder.empty()) continue;
        const fs::path tmp = private_folder.path() / fs::path(f.input).filename();
        if (write_file_atomic(tmp, result.outputs[i], {.durable = false})) continue;
        std::error_code ec;
        copts.include_dirs.push_back(fs::absolute(f.input, ec).parent_path());
        units.emplace_back(i, tmp);
      } else {
        units.emplace_back(i, f.output.empty() ? fs::path(f.input) : fs::path(f.output));
      }
    }
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t k; (k = next.fetch_add(1)) < units.size();) {
        verify::CompileCheckOptions mine = copts;
        std::error_code canonical_ec;
        if (auto it = check_flags.find(fs::weakly_canonical(report.files[units[k].first].input, canonical_ec)); it != check_flags.end())
          mine.extra_flags = it->second;
        report.files[units[k].first].checks = verify::check_unit(units[k].second, mine);
      }
    };
    {
      std::vector<std::jthread> pool;
      const unsigned jobs = std::max(1u, std::min<unsigned>(a.jobs, static_cast<unsigned>(units.size())));
      for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
    }
    private_folder.remove();
  }

  // Quiet text reports list errors only, so the full report is not rendered for them.
  const bool quiet_text = a.quiet && a.report_format == "text" && a.report_file.empty();
  std::string rendered;
  if (a.report_format == "json") rendered = dump_json(source::to_json(report));
  else if (a.report_format == "sarif") rendered = dump_json(source::to_sarif(report));
  else if (!quiet_text) rendered = source::format_text(report);

  if (!a.report_file.empty()) {
    // A file the user names: its folder must exist; a link or device (/dev/stdout) is written
    // through, not replaced.
    if (auto err = write_file_atomic(a.report_file, rendered, {.create_parents = false})) {
      std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
      return 2;
    }
  } else if (!a.quiet || report.count(Severity::error) > 0) {
    // The report goes to stderr when stdout carries the translation.
    std::FILE* stream = to_stdout ? stderr : stdout;
    if (quiet_text) {
      for (const auto& f : report.files)
        for (const auto& d : f.findings)
          if (d.severity == Severity::error) std::fprintf(stream, "%s\n", format_diagnostic(d).c_str());
      for (const auto& d : report.errors) std::fprintf(stream, "%s\n", format_diagnostic(d).c_str());
    } else {
      if (stream == stdout) write_stdout(rendered);
      else std::fwrite(rendered.data(), 1, rendered.size(), stream);
    }
  }

  if (report.io_failure) return 2;
  if (report.count(Severity::error) > 0 || report.failed_checks() > 0) return 1;
  return 0;
}

}  // namespace

Action add_translate_command(CLI::App& app) {
  auto args = std::make_shared<TranslateArguments>();
  CLI::App* cmd = app.add_subcommand("translate", "Translate CUDA C++ sources to HIP C++, or HIP to CUDA (--to cuda)");
  cmd->footer(
      "Exit status: 0 translated; 1 findings at error level (or a failed --check); 2 usage or I/O error.\n"
      "A single file without -o goes to stdout (the report to stderr).");
  cmd->add_option("inputs", args->inputs, "CUDA source files or folders");
  cmd->add_option("-o,--output", args->output_dir, "Write the translated tree under DIR (mirrors the inputs, copies non-source files)");
  cmd->add_flag("--in-place", args->in_place, "Rewrite files in place (atomic; keeps FILE.gpuport.bak)");
  cmd->add_flag("--no-backup", args->no_backup, "With --in-place: keep no backup");
  cmd->add_flag("--dry-run", args->dry_run, "Translate and report only; write nothing");
  cmd->add_option("--report", args->report_format, "Report format: text, json or sarif")->capture_default_str();
  cmd->add_option("--report-file", args->report_file, "Write the report to this file instead of the terminal");
  cmd->add_option("-j,--jobs", args->jobs, "Parallel jobs (output is identical at any count)")->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  cmd->add_flag("--fix-warp-size", args->fix_warp_size, "Apply the safe warp-size fixes (warpSize, 64-bit masks)");
  cmd->add_option("--launch", args->launch, "Kernel launches: keep (<<<>>>) or ggl (hipLaunchKernelGGL)")->capture_default_str();
  cmd->add_flag("--hip-kernel-execution-syntax", args->hip_kernel_execution_syntax,
                "hipify-clang's name for --launch ggl (wins over --cuda-kernel-execution-syntax)");
  cmd->add_flag("--cuda-kernel-execution-syntax", args->cuda_kernel_execution_syntax,
                "hipify-clang's name for --launch keep");
  cmd->add_flag("--hipify-style", args->hipify_style,
                "hipify-clang's output conventions: flat library header names (<hipblas.h>), the runtime "
                "include in every file that includes a CUDA header");
  cmd->add_flag("--skip-excluded-preprocessor-conditional-blocks", args->skip_excluded,
                "Leave the #if groups a compiler would skip as they are (decided with -D/-U and the file's own "
                "#defines; a condition on a macro the file cannot know keeps every branch)");
  cmd->add_flag("--default-preprocessor", args->default_preprocessor,
                "hipify-clang's synonym of --skip-excluded-preprocessor-conditional-blocks");
  cmd->add_flag("--amap", args->amap,
                "Translate as much as possible: every #if branch (gpuport's default; overrides --default-preprocessor)");
  cmd->add_flag("--experimental", args->experimental,
                "Accepted for hipify-clang: gpuport has no experimental tier, every mapping it knows is always used");
  cmd->add_option("--project", args->project,
                  "Translate a CUDA project folder: its sources and its CMake build (CMakeLists.txt, *.cmake: the CUDA language "
                  "becomes HIP, CUDA:: targets HIP's, nvcc flags clang's), with gpuport-hip.cmake for building it with clang");
  cmd->add_option("--to", args->to,
                  "hip (CUDA -> HIP, the default) or cuda (HIP -> CUDA: the same tables read the other way; --check compiles "
                  "with nvcc 11.8 as CUDA)")
      ->capture_default_str();
  cmd->add_flag("--keep-platform-macros", args->keep_platform_macros,
                "With --to cuda: keep __HIP_PLATFORM_NVIDIA__/__HIP_PLATFORM_NVCC__ tests as written (default: read as __CUDACC__)");
  cmd->add_option("--hip-version", args->hip_version,
                  "HIP to translate for: 6.4 (Debian sid's, unpacked by scripts/fetch-rocm-6.4), 5.7 (Debian 13's, "
                  "scripts/fetch-rocm-headers) or 5.2 (Debian 12's, installed). It chooses the API names (HIP 6's bf16 "
                  "intrinsics, hipRAND orderings, hipDeviceProp_t members...) and what --check compiles against. "
                  "Only HIP 5.2's NVIDIA platform headers are packaged: for other versions the NVIDIA check is skipped "
                  "with that reason. 6.2: HIP 6.2's names, checked against 6.4")
      ->capture_default_str();
  cmd->add_flag("--roc", args->roc,
                "Translate cuBLAS, cuSPARSE, cuRAND and cuSOLVER to rocBLAS, rocSPARSE, rocRAND and rocSOLVER "
                "directly, not to the hip* wrappers (hipify-clang's --roc; also -roc)");
  cmd->add_flag("--use-hip-data-types", args->use_hip_data_types,
                "Accepted for hipify-clang: cudaDataType always becomes hipDataType (HIP's own, which hipBLAS and "
                "hipSPARSE take since ROCm 6), never hipblasDatatype_t");
  cmd->add_option("-D", args->defines, "Define a macro for --skip-excluded-preprocessor-conditional-blocks (NAME or NAME=VALUE)")
      ->allow_extra_args(false);
  cmd->add_option("-U", args->undefines, "Undefine a macro for --skip-excluded-preprocessor-conditional-blocks")
      ->allow_extra_args(false);
  cmd->add_flag("--no-runtime-include", args->no_runtime_include, "Do not add #include <hip/hip_runtime.h>");
  cmd->add_flag("--no-follow-includes", args->no_follow_includes, "Do not translate local headers that file inputs include");
  // One folder per -I: `-I DIR FILE` must not take FILE as a second folder.
  cmd->add_option("-I", args->include_dirs, "Folder to search for local includes (and for --check)")
      ->allow_extra_args(false);
  cmd->add_option("-p", args->compile_db,
                  "Build folder holding compile_commands.json, or the file itself (hipify-clang's -p): the -I, -D "
                  "and -U of its entries for the inputs are used");
  cmd->add_flag("--check", args->check, "Compile-check each translated unit for gfx1100 (clang-19) and HIP's NVIDIA platform (nvcc 11.8)");
  cmd->add_option("--check-targets", args->check_targets, "Targets for --check: amd, nvidia or amd,nvidia")->capture_default_str();
  cmd->add_option("--rocm-device-lib-path", args->device_lib_dir, "gfx1100 device-library folder for --check");
  cmd->add_option("--nvcc", args->nvcc, "nvcc 11.8 for --check")->capture_default_str();
  cmd->add_option("--clang", args->clang, "clang++ 19 for --check")->capture_default_str();
  cmd->add_option("--nvidia-arch", args->nvidia_arch, "NVIDIA architecture for --check")->capture_default_str();
  cmd->add_option("--maps", args->maps_dir, "Load mapping tables from this folder instead of the built-in ones");
  cmd->add_option("--max-file-size", args->max_file_size, "Largest input file in bytes (1 to 2^40)")
      ->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_flag("!--no-progress", args->progress, "No progress bar");
  cmd->add_flag("-q,--quiet", args->quiet, "Print only errors");
  return [args] { return run_translate(*args); };
}

}  // namespace gpuport::cli
