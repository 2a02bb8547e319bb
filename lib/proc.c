/* proc.c: running a program without a shell (gnuplot, gzip, perf, the
 * workers of ovb-reserves), its standard streams on the caller's pipes.
 *
 * One mechanism, posix_spawnp: a program that cannot be started (not
 * found, not executable) is this call's error with its errno, never an exit
 * status 127 to be told apart from the program's own later.  Descriptors
 * the child must not hold (the other ends of its pipes) are the caller's
 * to open close-on-exec (pipe2 O_CLOEXEC).  Safe from threads with
 * OVB_PROC_NOFLUSH (posix_spawnp is; flushing every stdio stream from a
 * worker would push another thread's half-written output out early). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovb.h"

/* Standard stream std of the child from fd: OVB_PROC_NULL opens
 * /dev/null, -1 leaves the caller's own. */
static int
stream(posix_spawn_file_actions_t *fa, int fd, int std, int flags)
{
	if (fd == OVB_PROC_NULL)
		return posix_spawn_file_actions_addopen(fa, std, "/dev/null",
			flags, 0);
	if (fd >= 0)
		return posix_spawn_file_actions_adddup2(fa, fd, std);
	return 0;
}

int
ovb_proc_spawn(pid_t *pid, const char *file, char *const argv[], int in,
	int out, int err)
{
	return ovb_proc_spawn_flags(pid, file, argv, in, out, err, 0);
}

int
ovb_proc_spawn_flags(pid_t *pid, const char *file, char *const argv[],
	int in, int out, int err, int flags)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int e = posix_spawn_file_actions_init(&fa);
	if (e)
		return e;
	if ((e = posix_spawnattr_init(&at))) {
		posix_spawn_file_actions_destroy(&fa);
		return e;
	}
	/* the child starts as a program expects: nothing blocked, SIGINT and
	 * SIGTERM at their defaults whatever the caller does with them (it
	 * may block them around the spawn, or ignore them, to pass them on:
	 * ovb-capture) */
	sigset_t none, def;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	if (!(e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK |
	    POSIX_SPAWN_SETSIGDEF)) &&
	    !(e = posix_spawnattr_setsigmask(&at, &none)) &&
	    !(e = posix_spawnattr_setsigdefault(&at, &def)) &&
	    !(e = stream(&fa, in, 0, O_RDONLY)) &&
	    !(e = stream(&fa, out, 1, O_WRONLY)) &&
	    !(e = stream(&fa, err, 2, O_WRONLY))) {
		if (!(flags & OVB_PROC_NOFLUSH))
			fflush(NULL);   /* what we wrote comes before what it
			                   writes */
		e = posix_spawnp(pid, file, &fa, &at, argv, environ);
	}
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return e;
}

int
ovb_proc_wait(pid_t pid, int *ws)
{
	while (waitpid(pid, ws, 0) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}
