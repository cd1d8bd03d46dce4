#include "cli/app.h"
#include "cli/huge_page_heap.h"

int main(int argc, char** argv) {
  bertkit::cli::use_huge_page_heap();
  return bertkit::cli::run(argc, argv);
}
