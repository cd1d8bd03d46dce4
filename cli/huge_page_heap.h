#pragma once
// The process's heap in huge pages. On the virtual machines this runs on, the first touch of a 4 KiB
// page costs ~10 us (measured: 2,400 page faults were half of a one-sentence `tokenize -m MODEL` call),
// and a model command touches megabytes of fresh memory (the tokenizer's tables, activations). The
// first 30 MB of heap, advised MADV_HUGEPAGE, fault in 2 MiB at once.
namespace bertkit::cli {

// Call first thing in main, before the heap is much used. Only advice: nothing fails.
void use_huge_page_heap();

}  // namespace bertkit::cli
