/*
 * foreign_exec.h - a profiled process that exec'd a program exaloop did not
 * build.
 *
 * An image exaloop built finalizes the capture of the image before it
 * (rt_init.c, end reason "exec"); any other program has no runtime to do
 * so, and exec runs no destructor, so the first image's capture was left
 * unfinalized, as after a crash.  exaloop, the process's parent, tells the
 * two apart when the process has ended and before it reaps it: exec sets
 * the process's name (comm) to the new program's file name, and a zombie
 * keeps it.  The capture is then finalized as ended by exec with no next
 * image (next_image 0), which the report words as "ended by exec into a
 * program that was not captured".
 *
 * Limits: an exec'd program whose file name (first 15 bytes) equals the
 * profiled executable's is not told from a crash; a program that renamed
 * its main thread (PR_SET_NAME) and then crashed is taken for an exec only
 * when the runtime did not see the new name (it refreshes names every
 * 0.5 s); only the process's first image is handled (exec-<n>/ images
 * that exec'd a foreign program stay unfinalized).
 */
#ifndef XL_FOREIGN_EXEC_H
#define XL_FOREIGN_EXEC_H

#include <sys/types.h>

struct xl_exec_probe {
	char comm[16]; /* the ended process's name, "" when unknown */
};

/* xl_process ended_hook: read the zombie's name (arg: the probe). */
void xl_exec_probe_hook(pid_t pid, void *arg);

/* After the program ended: when the capture in dir is pid's, not
 * finalized, and the process's name is neither exe's file name nor the
 * name its main thread last had in the capture, finalize the capture as
 * ended by exec into a program that was not captured.  Returns 1 when it
 * did. */
int xl_exec_probe_finish(const struct xl_exec_probe *pr, const char *dir, pid_t pid, const char *exe);

#endif
