/* main.c - the entry point of every test binary. */
#include "harness.h"

int main(int argc, char **argv) { return th_main(argc, argv); }
