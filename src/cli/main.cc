// gpuport: ports GPU code between NVIDIA and AMD and proves that the port works.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"gpuport: port GPU code between NVIDIA and AMD, and prove the port works", "gpuport"};
  app.set_version_flag("--version", "gpuport 0.1.0");
  app.require_subcommand(1);
  gpuport::cli::Action translate = gpuport::cli::add_translate_command(app);
  gpuport::cli::Action verify = gpuport::cli::add_verify_command(app);
  gpuport::cli::Action sass = gpuport::cli::add_sass_command(app);
  gpuport::cli::Action divergence_bench = gpuport::cli::add_divergence_bench_command(app);
  try {
    app.parse(argc, argv);
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
  // What went to stdout (a translation, a listing, a report) must have arrived: a full disk or
  // a closed pipe is an I/O error, not a success.
  if (const int err = gpuport::cli::finish_stdout(); err != 0) {
    std::fprintf(stderr, "gpuport: error: cannot write to standard output: %s [io-error]\n", std::strerror(err));
    return 2;
  }
  return status;
}
