// Bodies for CDarwin.h's functions, only so the view's test binaries link: the view is built, never run.
#include <stdlib.h>
#include "CDarwin.h"

int kqueue(void) { abort(); }
int kevent(int kq, const struct kevent *changelist, int nchanges, struct kevent *eventlist, int nevents,
           const struct timespec *timeout) { abort(); }
