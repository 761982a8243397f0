#include "CJSONCLoop.h"
int bench_placeholder(void){return 0;}
