// The few MPI operations `check --exhaustive` needs under mpirun (cli/mpi_ranks.cpp). Built with
// -DGELUCHECK_MPI=ON they are Open MPI's; otherwise (and when gelucheck was not started by
// mpirun) there is one rank and they do nothing.
#pragma once

#include <string>
#include <vector>

namespace gelucheck::cli::mpi {

// Initialises MPI when the process was started by mpirun (MPI's environment is set); main calls
// it first. finalize() at the end (idempotent).
void init(int* argc, char*** argv);
void finalize();
int rank();  // 0 without MPI
int size();  // 1 without MPI
// Every rank's text at rank 0, in rank order; the other ranks get an empty vector.
std::vector<std::string> gather(const std::string& mine);
// Rank 0's value, on every rank.
int broadcast(int v);

}  // namespace gelucheck::cli::mpi
