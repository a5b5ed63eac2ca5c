/*
 * ploy.h: ploy's C API, for game engines and any language that calls C.
 *
 * Build the library from the repository's root with Go 1.26 or later:
 *
 *     go build -buildmode=c-shared -o libploy.so ./bindings/c    (shared)
 *     go build -buildmode=c-archive -o libploy.a ./bindings/c    (static)
 *
 * and link with -lploy (a static libploy.a also needs -lpthread -lm on
 * Linux). docs/bindings.md is the guide; this header is the contract.
 *
 * HANDLES. A domain, a world and an agent are held by handles: numbers,
 * never pointers. 0 is never a handle: a function that makes one returns
 * 0 when it fails. A handle released, or never made, is an error ("no
 * such handle"), never a crash; handles are not reused. ploy_release
 * frees a handle.
 *
 * ERRORS. No function aborts the program or lets a Go panic through: an
 * internal error is reported like any other.
 *   - Functions that make a handle return 0 on error.
 *   - Functions that return int return -1 on error (and 0 or a count
 *     otherwise, as each says).
 *   - Functions that return char * (JSON) return NULL on error, except
 *     ploy_call, which answers every error as a JSON error object.
 * The message: ploy_load, ploy_load_pddl and ploy_agent_new take a
 * char **error and store it there (or NULL on success) when error is not
 * NULL. Every other failing call, and those three given a NULL error,
 * records the message as the CALLING THREAD'S LAST ERROR, which
 * ploy_last_error returns and clears. A success does not clear it: check
 * the return value first, as with errno. Messages name the file, line and
 * column, the field or the handle at fault.
 *
 * MEMORY. Every char * the library returns (answers, JSON, messages),
 * except ploy_version's, comes from malloc: the caller frees it with
 * ploy_free (which is free). Strings passed in are only read during the
 * call, never kept. Names (kinds, facts, keys, methods, file names) are
 * at most 4096 bytes; a longer one is an error, read no further.
 *
 * THREADS. Every function is safe to call from any thread at any time.
 * The calls on one world and its agents are serialised by that world's
 * lock: ploy_world_frame holds it for the whole frame, so a call on one
 * of its agents from another thread waits for the frame to end. Calls on
 * different worlds, and ploy_call on any domain, run in parallel.
 * Handles are process-wide: a handle made on one thread may be used on
 * any other.
 *
 * THE FRAME LOOP. Sensors and behaviours live in the engine; no callback
 * crosses the boundary. Once per game frame:
 *   1. push what the sensors see: ploy_agent_set (facts, inputs, keys),
 *      ploy_agent_set_position and ploy_agent_set_target;
 *   2. ploy_world_frame: every agent ticks, and plans are made on the
 *      world's workers;
 *   3. for each agent, ploy_agent_action says what to do: PLOY_ACTING
 *      (run the action named, and report it with ploy_agent_report),
 *      PLOY_WALKING (walk to ploy_agent_destination; report success on
 *      arrival) or PLOY_IDLE.
 * The agent reads the pushed values and the reports at its next frame.
 */
#ifndef PLOY_H
#define PLOY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A loaded domain file: YAML (a state-space or an engine-model file) or a
 * PDDL domain and problem. */
typedef uint64_t ploy_domain;
/* Agents of one domain file's kinds, on one plan queue. */
typedef uint64_t ploy_world;
/* One agent of a world. */
typedef uint64_t ploy_agent;

/* How the action an agent runs went: ploy_agent_report's status. */
#define PLOY_RUNNING 0 /* still working: the agent asks again next frame */
#define PLOY_SUCCESS 1 /* done (for a walk: arrived) */
#define PLOY_FAILURE 2 /* could not be done (for a walk: cannot get there) */

/* What an agent does now: ploy_agent_action's answer. */
#define PLOY_IDLE 0    /* no action: planning, waiting, or nothing to do */
#define PLOY_ACTING 1  /* run the action named, and report how it goes */
#define PLOY_WALKING 2 /* walk to ploy_agent_destination; the action starts on arrival */

/* ---- Domains and the JSON API ---------------------------------------- */

/*
 * ploy_load parses a domain file's YAML text, len bytes at source (no NUL
 * needed; at most 8 MiB), and returns its handle, or 0 on error. name is
 * the file's name in error messages (NULL: "<source>"). On error, *error
 * is set to a message the caller frees, every error of the file with its
 * line and column ("mine.yaml:5:15: unknown fact ..."); on success, to
 * NULL. error may be NULL (then see ploy_last_error). Any thread.
 */
ploy_domain ploy_load(const char *source, size_t len, const char *name, char **error);

/*
 * ploy_load_pddl parses, checks and grounds a PDDL domain and problem
 * (their texts and lengths, at most 16 MiB each; names for messages,
 * NULL for "<domain>" and "<problem>"), as ploy_load does a YAML file.
 * ploy_call answers "plan" on it; worlds need a YAML file. Any thread.
 */
ploy_domain ploy_load_pddl(const char *domain, size_t domain_len, const char *domain_name,
                           const char *problem, size_t problem_len, const char *problem_name,
                           char **error);

/*
 * ploy_call answers the JSON API's request for method on domain d:
 * "plan", "resolve", "htn", "explain", "trace", "graph", "lint" (the
 * methods ploy_methods lists), with exactly the request and answer bodies
 * docs/api.md documents for /api/v1/METHOD minus the "source" field, and
 * the same limits (a request of at most 1 MiB). request_json may be NULL
 * (an empty request). It always answers JSON, which the caller frees: the
 * answer, or an error object {"error": MESSAGE, "field": FIELD, "status":
 * HTTP_STATUS} (field when one is at fault) for a bad handle, a NULL
 * method, a bad request or an internal error. NULL only if out of memory.
 * On a PDDL domain it answers "plan" (request {"heuristic", "budget"}).
 * Any thread; calls run in parallel, up to the API's concurrency limit.
 */
char *ploy_call(ploy_domain d, const char *method, const char *request_json);

/*
 * ploy_methods lists the methods ploy_call answers on d, as a JSON array
 * of strings the caller frees; NULL on error. Any thread.
 */
char *ploy_methods(ploy_domain d);

/*
 * ploy_kinds lists the agent kinds of d's agents: section, in the file's
 * order, as a JSON array of strings the caller frees (an empty array for a
 * file with none, or a PDDL problem): the names ploy_agent_new takes. NULL
 * on error. Any thread.
 */
char *ploy_kinds(ploy_domain d);

/*
 * ploy_release frees what handle names: a domain (worlds made from it
 * keep working), a world and all its agents, or one agent (which leaves
 * its world). 0, or a handle already released, does nothing. Any thread;
 * releasing a world waits for a frame running on it.
 */
void ploy_release(uint64_t handle);

/*
 * ploy_held is how many handles are held, for finding leaks; -1 on an
 * internal error. Any thread.
 */
int ploy_held(void);

/* ploy_free frees memory the library returned (it is free). Any thread. */
void ploy_free(void *p);

/*
 * ploy_last_error returns the calling thread's last error message and
 * clears it: the caller frees it. NULL if no call on this thread has
 * failed since the last ploy_last_error. Each thread has its own. Any
 * thread. A thread that ends with a message untaken leaves it allocated
 * (one message per such thread).
 */
char *ploy_last_error(void);

/*
 * ploy_version says which build of ploy this is, as `ploy --version`
 * does: a static string the caller must NOT free. Any thread.
 */
const char *ploy_version(void);

/* ---- The runtime, driven by the engine ------------------------------- */

/*
 * ploy_world_new makes a world for the agent kinds of domain d (a YAML
 * file's agents: section), planning on workers threads (1 to 64; the one
 * calling ploy_world_frame is one of them), and returns its handle; 0 on
 * error (ploy_last_error). Any thread.
 */
ploy_world ploy_world_new(ploy_domain d, int workers);

/*
 * ploy_world_record makes world w keep its agents' decisions, at most
 * max_decisions of them and max_bytes bytes (0 for the defaults: 10 000
 * and 64 MiB), the oldest dropped first; ploy_world_decisions reads them.
 * Call it before adding agents. 0, or -1 on error. Any thread.
 */
int ploy_world_record(ploy_world w, int max_decisions, long long max_bytes);

/*
 * ploy_world_decisions returns world w's recorded decisions as a decision
 * recording (JSON Lines: a header, then one decision a line;
 * docs/records.md), which `ploy why`, `ploy replay` and the inspector
 * read. The caller frees it; NULL on error (no ploy_world_record, a bad
 * handle). Any thread.
 */
char *ploy_world_decisions(ploy_world w);

/*
 * ploy_world_frame runs one frame of world w: every agent ticks, in the
 * order they were added (it reads what the engine pushed and reported,
 * goes on with its action or asks for a plan), then the plans asked for
 * are made on the world's workers. It returns how many plans it made, or
 * -1 on error. After an internal error the world refuses to go on
 * (release it). Any thread; it holds the world's lock for the frame.
 */
int ploy_world_frame(ploy_world w);

/*
 * ploy_world_set_slice makes each engine-model agent's search in world w
 * expand at most expansions partial chains per frame, and each GOAP
 * search at most expansions states, and each HTN decomposition at most
 * expansions steps, from the next ploy_world_frame on. A search that reaches its slice is suspended and
 * goes on in the next frame where it stopped, ahead of later requests:
 * it ends with exactly the plan (chain, cost, counts) it would have found
 * whole, some frames later. A frame then expands at most 256 (the plans a
 * frame makes) x expansions chains, states and steps between its
 * searches, whatever the agents' budgets: ploy_world_frame_stats counts
 * them. 0, the default, runs each search whole within its budget. 0, or
 * -1 on error (a negative slice, a bad handle). Any thread.
 */
int ploy_world_set_slice(ploy_world w, int64_t expansions);

/*
 * ploy_world_set_min_share makes world w's frames wake a worker only for
 * at least share plans each, from the next ploy_world_frame on: a frame
 * of n plans runs on at most n / share of the world's workers, at least
 * the thread that calls ploy_world_frame. Waking a worker thread costs
 * about as much as a few dozen plain plans, so a world whose frames are
 * small runs them faster on fewer workers; the agents get the same plans
 * whichever the share. 1, the default, wakes every worker for a frame of
 * as many plans. 0, or -1 on error (a share below 1, a bad handle). Any
 * thread.
 */
int ploy_world_set_min_share(ploy_world w, int64_t share);

/*
 * ploy_world_frame_stats says what world w's last ploy_world_frame did,
 * as JSON {"slice", "taken", "ended", "suspended", "chains", "states",
 * "steps", "workers"}: the slice it ran with (0: none), the searches it
 * ran (suspended ones it went on with included), those that ended and
 * those suspended until the next frame, the chains its engine-model
 * searches expanded, the states its GOAP searches expanded, the steps its
 * HTN decompositions took, and the workers it ran on
 * (ploy_world_set_min_share). All 0 before the first frame. The
 * caller frees it; NULL on error. Any thread.
 */
char *ploy_world_frame_stats(ploy_world w);

/*
 * ploy_agent_new adds an agent of kind (a name of the file's agents:
 * section) to world w, named name (NULL or "": KIND-N), and returns its
 * handle; 0 on error, with *error set as ploy_load sets it (an unknown
 * kind says which are known). Any thread.
 */
ploy_agent ploy_agent_new(ploy_world w, const char *kind, const char *name, char **error);

/*
 * ploy_agent_set is what the engine's sensors push: on a state-space
 * file, a fact (true when value is not 0) or an input (a number goal
 * choice and utility weigh); on an engine-model file, a key (an integer;
 * 0 or 1 for a boolean). value must be finite. The agent reads it at its
 * next frame. 0, or -1 on error (an unknown name says the closest known).
 * Any thread.
 */
int ploy_agent_set(ploy_agent a, const char *fact_or_key, double value);

/*
 * ploy_agent_set_position says where an engine-model agent stands: where
 * its walks and distance costs start. 0, or -1 on error (a state-space
 * agent, a coordinate not finite). Any thread.
 */
int ploy_agent_set_position(ploy_agent a, double x, double y);

/*
 * ploy_agent_set_target is what the engine's target sensor found for an
 * engine-model agent's target key: a position (found not 0), or nothing
 * (found 0: the agent cannot do the actions that need it, and one walking
 * to it replans). 0, or -1 on error. Any thread.
 */
int ploy_agent_set_target(ploy_agent a, const char *key, double x, double y, int found);

/*
 * ploy_agent_action says what agent a should do now: it returns
 * PLOY_IDLE, PLOY_ACTING or PLOY_WALKING, and writes the action's name
 * (for PLOY_WALKING, the action it walks for; "" when idle) into buf,
 * NUL-terminated. It never writes more than n bytes. If the name and its
 * NUL do not fit, it writes the first n-1 bytes and a NUL, and returns -1
 * with a last error saying how many bytes the name needs; 64 bytes hold
 * every name of the shipped domains. -1 also on error (bad handle, buf
 * NULL, n 0). Any thread.
 */
int ploy_agent_action(ploy_agent a, char *buf, size_t n);

/*
 * ploy_agent_destination writes where a walking engine-model agent is
 * headed into *x and *y, and returns 1 if it is walking, 0 if not (then
 * *x and *y are its last destination, or 0), -1 on error (x or y NULL, a
 * bad handle). Any thread.
 */
int ploy_agent_destination(ploy_agent a, double *x, double *y);

/*
 * ploy_agent_report is how the engine's behaviour says the action it runs
 * went: PLOY_RUNNING, PLOY_SUCCESS or PLOY_FAILURE. For a walk, success
 * says the agent arrived (it also arrives when ploy_agent_set_position
 * puts it within reach) and failure that it cannot get there. The agent
 * reads it at its next frame. 0, or -1 on error (another status, an agent
 * running no action). Any thread.
 */
int ploy_agent_report(ploy_agent a, int status);

/*
 * ploy_agent_events returns agent a's events since the last call, as JSON
 * {"events": [...], "dropped": N}, each event as the runtime encodes it
 * (docs/agents.md: goal chosen, plan found, step started, succeeded or
 * failed, replans and why), dropped counting those lost past the 256 an
 * agent keeps. The caller frees it; NULL on error. Any thread.
 */
char *ploy_agent_events(ploy_agent a);

/*
 * ploy_agent_state describes agent a as JSON: {"name", "kind", "goal",
 * "plan", "step", "action", "doing", and what it believes: "facts" and
 * "inputs", or "keys" and "at"}. The caller frees it; NULL on error. Any
 * thread.
 */
char *ploy_agent_state(ploy_agent a);

/*
 * ploy_agent_trace_decisions turns on (on not 0) or off, for agent a, the
 * trace level of its world's recording: what each of its searches turned
 * down, and why. 0, or -1 on error (a world that records no decisions:
 * call ploy_world_record before adding agents). Any thread.
 */
int ploy_agent_trace_decisions(ploy_agent a, int on);

#ifdef __cplusplus
}
#endif

#endif /* PLOY_H */
