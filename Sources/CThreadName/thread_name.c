#include "lp_system.h"

#include <sys/prctl.h>

void lp_name_this_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
