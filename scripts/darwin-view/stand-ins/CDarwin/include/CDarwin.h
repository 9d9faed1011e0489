// The Darwin declarations the Darwin view uses that Glibc lacks, transcribed in C so Swift imports
// them as it imports Darwin's own headers (a macro becomes an Int32 constant, struct kevent a struct
// with its init, kevent() a function). Each line names its source: apple-oss-distributions/xnu at
// e3723e1f (tag xnu-11417.101.15). Add a declaration only when the view needs it, with its source.
#ifndef CDARWIN_STAND_IN_H
#define CDARWIN_STAND_IN_H
#include <stdint.h>
#include <time.h>

// bsd/sys/event.h:70-71, 79
#define EVFILT_READ             (-1)
#define EVFILT_WRITE            (-2)
#define EVFILT_USER             (-10)   /* User events */

// bsd/sys/event.h:92-101 (the pragma as the header has it)
#pragma pack(4)
struct kevent {
	uintptr_t       ident;  /* identifier for this event */
	int16_t         filter; /* filter for event */
	uint16_t        flags;  /* general flags */
	uint32_t        fflags; /* filter-specific flags */
	intptr_t        data;   /* filter-specific data */
	void            *udata; /* opaque user data identifier */
};
#pragma pack()

// bsd/sys/event.h:144-147, 151, 174-175
#define EV_ADD              0x0001      /* add event to kq (implies enable) */
#define EV_DELETE           0x0002      /* delete event from kq */
#define EV_ENABLE           0x0004      /* enable event */
#define EV_DISABLE          0x0008      /* disable event (not reported) */
#define EV_CLEAR            0x0020      /* clear event state after reporting */
#define EV_EOF              0x8000      /* EOF detected */
#define EV_ERROR            0x4000      /* error, data contains errno */

// bsd/sys/event.h:212
#define NOTE_TRIGGER    0x01000000

// bsd/sys/event.h:380-384
int     kqueue(void);
int     kevent(int kq,
    const struct kevent *changelist, int nchanges,
    struct kevent *eventlist, int nevents,
    const struct timespec *timeout);

// bsd/sys/socket.h:174
#define SO_NOSIGPIPE    0x1022          /* APPLE: No SIGPIPE on EPIPE */

// bsd/netinet/tcp.h:226
#define TCP_KEEPALIVE           0x10    /* idle time used when SO_KEEPALIVE is enabled */

#endif
