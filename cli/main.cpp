#include "cli/app.h"

int main(int argc, char** argv) { return bertkit::cli::run(argc, argv); }
