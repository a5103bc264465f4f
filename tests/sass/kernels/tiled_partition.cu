// Cooperative-groups tiled partitions: tile-local reductions and tile sync.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void tiled_partition(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int v = in[block.thread_rank()];
  for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);
  if (tile.thread_rank() == 0) out[block.thread_rank() / 8] = v;
  tile.sync();
  if (v & 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    v = active.shfl(v, 0) + (int)active.size();
  }
  out[block.thread_rank()] += v;
}
