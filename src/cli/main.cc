// gpuport: ports GPU code between NVIDIA and AMD and proves that the port works.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace {

// hipify-clang parses options the LLVM way, where a long option may take one dash (`-roc`,
// `-amap`, and HIPIFY's own tests write "-roc"). After `gpuport translate`, a one-dash word
// that is exactly the long name of one of translate's options is read as that option; every
// other argument (-D, -I, -o, -j, -q, file names) is left as it is.
std::vector<std::string> hipify_long_options(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  if (argc < 2 || args[1] != "translate") return args;
  const CLI::App* translate = app.get_subcommand("translate");
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;  // positional arguments only from here on
    if (a.size() < 3 || a[0] != '-' || a[1] == '-') continue;
    const std::string name = a.substr(1, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 1);
    for (const CLI::Option* o : translate->get_options()) {
      const auto& longs = o->get_lnames();
      if (std::find(longs.begin(), longs.end(), name) != longs.end()) {
        args[i] = "-" + a;
        break;
      }
    }
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpuport: port GPU code between NVIDIA and AMD, and prove the port works", "gpuport"};
  app.set_version_flag("--version", "gpuport 0.1.0");
  app.require_subcommand(1);
  gpuport::cli::Action translate = gpuport::cli::add_translate_command(app);
  gpuport::cli::Action verify = gpuport::cli::add_verify_command(app);
  gpuport::cli::Action sass = gpuport::cli::add_sass_command(app);
  gpuport::cli::Action divergence_bench = gpuport::cli::add_divergence_bench_command(app);
  gpuport::cli::Action latency_bench = gpuport::cli::add_latency_bench_command(app);
  gpuport::cli::Action amdgpu = gpuport::cli::add_amdgpu_command(app);
  gpuport::cli::Action run = gpuport::cli::add_run_command(app);
  gpuport::cli::Action jit_compile = gpuport::cli::add_jit_compile_command(app);
  gpuport::cli::Action tune = gpuport::cli::add_tune_command(app);
  gpuport::cli::Action nvcc = gpuport::cli::add_nvcc_command(app);
#ifdef GPUPORT_HAVE_LIFT
  gpuport::cli::Action asm_ = gpuport::cli::add_asm_command(app);
#endif
  try {
    std::vector<std::string> args = hipify_long_options(app, argc, argv);
    std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 takes them reversed, without argv[0]
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // usage error
  }
  int status = 2;
  if (app.got_subcommand("translate")) status = translate();
  else if (app.got_subcommand("verify")) status = verify();
  else if (app.got_subcommand("sass")) status = sass();
  else if (app.got_subcommand("divergence-bench")) status = divergence_bench();
  else if (app.got_subcommand("latency-bench")) status = latency_bench();
  else if (app.got_subcommand("amdgpu")) status = amdgpu();
  else if (app.got_subcommand("run")) status = run();
  else if (app.got_subcommand("jit-compile")) status = jit_compile();
  else if (app.got_subcommand("tune")) status = tune();
  else if (app.got_subcommand("nvcc")) status = nvcc();
#ifdef GPUPORT_HAVE_LIFT
  else if (app.got_subcommand("asm")) status = asm_();
#endif
  // What went to stdout (a translation, a listing, a report) must have arrived: a full disk or
  // a closed pipe is an I/O error, not a success.
  if (const int err = gpuport::cli::finish_stdout(); err != 0) {
    std::fprintf(stderr, "gpuport: error: cannot write to standard output: %s [io-error]\n", std::strerror(err));
    return 2;
  }
  return status;
}
