# The golden suite's test format under `lit --param jit=compare` (lit.cfg.py): a test that runs no
# program (no `%gpuport run`) is UNSUPPORTED, the golden test having run it; the others run as
# usual. A module of its own so that lit's worker processes can load the class.
import lit.formats
import lit.Test


class RunsOnly(lit.formats.ShTest):
    def execute(self, test, litConfig):
        with open(test.getSourcePath(), encoding="utf-8", errors="replace") as f:
            if "%gpuport run" not in f.read():
                return lit.Test.Result(lit.Test.UNSUPPORTED, "runs no program")
        return super().execute(test, litConfig)
