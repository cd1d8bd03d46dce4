#include "cli/app.h"
#include "cli/huge_page_heap.h"
#include "cli/openmp_wait.h"

int main(int argc, char** argv) {
  bertkit::cli::set_openmp_wait_policy(argv);
  bertkit::cli::use_huge_page_heap();
  return bertkit::cli::run(argc, argv);
}
