// gelucheck's MPI layer (mpi_ranks.hpp): Open MPI when built with GELUCHECK_MPI, else one rank.
#include "mpi_ranks.hpp"

#include <cstdlib>

#ifdef GELUCHECK_WITH_MPI
#include <mpi.h>
#endif

namespace gelucheck::cli::mpi {
namespace {
#ifdef GELUCHECK_WITH_MPI
bool g_active = false;
#endif
int g_rank = 0, g_size = 1;
}  // namespace

#ifdef GELUCHECK_WITH_MPI
void init(int* argc, char*** argv) {
  // Only under a launcher: a plain `gelucheck eval` must not pay for (or print) an MPI singleton
  // start-up. Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMI launchers (srun) set PMI_SIZE.
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("PMIX_RANK"))
    return;
  MPI_Init(argc, argv);
  g_active = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
}
void finalize() {
  if (!g_active) return;
  g_active = false;
  MPI_Finalize();
}
std::vector<std::string> gather(const std::string& mine) {
  if (!g_active) return {mine};
  // The lengths first, then the texts (MPI counts are ints: a part's JSON is a few hundred kB).
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(g_size)), offs(static_cast<std::size_t>(g_size));
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (g_rank == 0) {
    int total = 0;
    for (std::size_t r = 0; r < lens.size(); ++r) {
      offs[r] = total;
      total += lens[r];
    }
    all.resize(static_cast<std::size_t>(total));
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (g_rank != 0) return {};
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lens.size(); ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offs[r]), static_cast<std::size_t>(lens[r])));
  return out;
}
int broadcast(int v) {
  if (g_active) MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}
#else
void init(int*, char***) {}
void finalize() {}
std::vector<std::string> gather(const std::string& mine) { return {mine}; }
int broadcast(int v) { return v; }
#endif

int rank() { return g_rank; }
int size() { return g_size; }

}  // namespace gelucheck::cli::mpi
