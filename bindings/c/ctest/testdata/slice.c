/*
 * Searches that span frames, through the C library: the same camp of
 * survivors (an engine-model file) run twice, with whole searches and
 * with ploy_world_set_slice(w, SLICE). The sliced camp must make every
 * plan the whole one makes, in the same order and at the same cost (each
 * agent's events, their frame aside, are the same), only later; no frame
 * of it may expand more chains than ploy_world_frame_stats allows (256 a
 * frame x SLICE), though a whole frame does; and bad arguments must fail
 * with the thread's last error. bindings/c/ctest's Go test builds and
 * runs it; it prints a summary and "ok" and exits 0, or says what failed
 * and exits 1.
 *
 *     slice survivor.yaml SLICE
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ploy.h"

static int failures;

#define CHECK(cond, ...)                                    \
	do {                                                    \
		if (!(cond)) {                                      \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                   \
			fprintf(stderr, "\n");                          \
			failures++;                                     \
		}                                                   \
	} while (0)

enum { AGENTS = 300, PLANS_PER_FRAME = 256 };

/* text is a growing string: one agent's events. */
struct text {
	char *s;
	size_t len, cap;
};

static void append(struct text *t, const char *s, size_t n) {
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (t->s == NULL) {
			fprintf(stderr, "out of memory\n");
			exit(1);
		}
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = 0;
}

/* A survivor as the engine sees it. */
struct survivor {
	ploy_agent a;
	double x, y;
	double warmth, hunger;
	struct text events;
};

struct camp {
	ploy_world w;
	struct survivor s[AGENTS];
};

static void set(struct survivor *s, const char *key, double v) {
	CHECK(ploy_agent_set(s->a, key, v) == 0, "set %s", key);
}

/* camp_new adds survivors of the file's two kinds to a new world of d,
 * each cold and hungry to its own degree and standing in its own place,
 * so that their searches differ (as the host package's test does). */
static void camp_new(struct camp *c, ploy_domain d, long long slice) {
	memset(c, 0, sizeof *c);
	c->w = ploy_world_new(d, 2);
	CHECK(c->w != 0, "a world");
	if (slice > 0)
		CHECK(ploy_world_set_slice(c->w, slice) == 0, "ploy_world_set_slice(%lld)", slice);
	for (int i = 0; i < AGENTS; i++) {
		struct survivor *s = &c->s[i];
		char name[16];
		snprintf(name, sizeof name, "s%d", i);
		char *error = NULL;
		s->a = ploy_agent_new(c->w, i % 3 == 2 ? "wounded" : "survivor", name, &error);
		CHECK(s->a != 0, "agent %s: %s", name, error ? error : "NULL");
		ploy_free(error);
		s->x = i % 7 - 3;
		s->y = i % 5 - 2;
		s->warmth = 10 + i % 40;
		s->hunger = 40 + i % 55;
		set(s, "warmth", s->warmth);
		set(s, "hunger", s->hunger);
		CHECK(ploy_agent_set_position(s->a, s->x, s->y) == 0, "a position");
	}
}

/* number reads the integer after "key": in json, or -1. */
static long number(const char *json, const char *key) {
	char pattern[32];
	snprintf(pattern, sizeof pattern, "\"%s\":", key);
	const char *p = strstr(json, pattern);
	return p ? strtol(p + strlen(pattern), NULL, 10) : -1;
}

/* keep appends the events of an answer {"events":[...],"dropped":N} to
 * t, without their "tick" (the frame, which a slice may delay). */
static void keep(struct text *t, char *answer) {
	CHECK(answer != NULL, "events");
	if (answer == NULL)
		return;
	CHECK(number(answer, "dropped") == 0, "events dropped: %s", answer);
	const char *p = strstr(answer, "\"events\":[");
	const char *end = strstr(answer, "],\"dropped\"");
	if (p == NULL || end == NULL) {
		CHECK(0, "events: %s", answer);
		ploy_free(answer);
		return;
	}
	p += strlen("\"events\":[");
	if (p == end) { /* none this frame */
		ploy_free(answer);
		return;
	}
	while (p < end) {
		const char *tick = strstr(p, "\"tick\":");
		if (tick == NULL || tick >= end) {
			append(t, p, end - p);
			break;
		}
		append(t, p, tick - p);
		p = tick + strlen("\"tick\":");
		while (p < end && *p != ',')
			p++;
		p++; /* the comma after the tick */
	}
	append(t, ",", 1);
	ploy_free(answer);
}

/* act is the engine's answer to what survivor s does now: walk it a unit
 * towards its destination, or do its action and push what it changed. */
static void act(struct survivor *s) {
	char name[64];
	int doing = ploy_agent_action(s->a, name, sizeof name);
	CHECK(doing >= 0, "an action");
	if (doing == PLOY_WALKING) {
		double x, y;
		CHECK(ploy_agent_destination(s->a, &x, &y) == 1, "a destination");
		double dx = x - s->x, dy = y - s->y;
		double n = fabs(dx) + fabs(dy);
		if (n < 1)
			n = 1;
		s->x += dx / n;
		s->y += dy / n;
		CHECK(ploy_agent_set_position(s->a, s->x, s->y) == 0, "a position");
	} else if (doing == PLOY_ACTING) {
		if (strcmp(name, "GatherWoodNorth") == 0 || strcmp(name, "GatherWoodSouth") == 0) {
			set(s, "has_wood", 1);
		} else if (strcmp(name, "LightFire") == 0) {
			set(s, "fire_lit", 1);
			set(s, "has_wood", 0);
		} else if (strcmp(name, "WarmUp") == 0) {
			s->warmth += 10;
			set(s, "warmth", s->warmth);
		} else if (strcmp(name, "Forage") == 0 || strcmp(name, "Hunt") == 0) {
			set(s, "has_food", 1);
		} else if (strcmp(name, "Eat") == 0) {
			s->hunger = s->hunger > 40 ? s->hunger - 40 : 0;
			set(s, "hunger", s->hunger);
			set(s, "has_food", 0);
		}
		CHECK(ploy_agent_report(s->a, PLOY_SUCCESS) == 0, "a report");
	}
}

/* frame runs one frame of camp c and the engine's answers, and returns
 * the frame's stats (the caller frees them) and the plans it made. */
static char *frame(struct camp *c, int *made) {
	*made = ploy_world_frame(c->w);
	CHECK(*made >= 0, "a frame");
	char *stats = ploy_world_frame_stats(c->w);
	CHECK(stats != NULL, "frame stats");
	for (int i = 0; i < AGENTS; i++) {
		act(&c->s[i]);
		keep(&c->s[i].events, ploy_agent_events(c->s[i].a));
	}
	return stats;
}

/* expect checks the thread's last error says what, and frees it. */
static void expect(const char *call, const char *what) {
	char *message = ploy_last_error();
	CHECK(message != NULL && strstr(message, what) != NULL, "%s: last error %s, want one saying %s", call,
	      message ? message : "NULL", what);
	ploy_free(message);
}

static struct camp whole, sliced;

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: slice survivor.yaml SLICE\n");
		return 2;
	}
	long long slice = atoll(argv[2]);
	FILE *f = fopen(argv[1], "rb");
	if (f == NULL) {
		fprintf(stderr, "cannot open %s\n", argv[1]);
		return 1;
	}
	static char src[1 << 20];
	size_t len = fread(src, 1, sizeof src, f);
	fclose(f);
	char *error = NULL;
	ploy_domain d = ploy_load(src, len, argv[1], &error);
	if (d == 0) {
		fprintf(stderr, "%s\n", error ? error : "no domain");
		return 1;
	}

	/* Bad arguments fail with the thread's last error, and leave the
	 * world's slice as it was. */
	ploy_world w = ploy_world_new(d, 1);
	CHECK(ploy_world_set_slice(w, 3) == 0, "a slice of 3");
	CHECK(ploy_world_set_slice(w, -1) == -1, "a slice of -1");
	expect("ploy_world_set_slice(w, -1)", "slice -1: a slice is 0 (none) or a number of chain expansions");
	CHECK(ploy_world_set_slice(w, INT64_MIN) == -1, "a slice of INT64_MIN");
	expect("ploy_world_set_slice(w, INT64_MIN)", "slice -9223372036854775808:");
	CHECK(ploy_world_set_slice(987654321, 1) == -1, "a slice on a bad handle");
	expect("ploy_world_set_slice(987654321, 1)", "no such handle 987654321");
	CHECK(ploy_world_set_slice(d, 1) == -1, "a slice on a domain");
	expect("ploy_world_set_slice(d, 1)", "is a domain, not a world");
	CHECK(ploy_world_set_min_share(w, 0) == -1, "a share of 0");
	expect("ploy_world_set_min_share(w, 0)", "share 0: a share is at least 1 plan a worker");
	CHECK(ploy_world_set_min_share(w, INT64_MIN) == -1, "a share of INT64_MIN");
	expect("ploy_world_set_min_share(w, INT64_MIN)", "share -9223372036854775808:");
	CHECK(ploy_world_set_min_share(987654321, 1) == -1, "a share on a bad handle");
	expect("ploy_world_set_min_share(987654321, 1)", "no such handle 987654321");
	CHECK(ploy_world_set_min_share(d, 1) == -1, "a share on a domain");
	expect("ploy_world_set_min_share(d, 1)", "is a domain, not a world");
	/* The stats say the slice the last frame ran with. */
	char *stats = ploy_world_frame_stats(w);
	CHECK(stats != NULL && strcmp(stats, "{\"slice\":0,\"taken\":0,\"ended\":0,\"suspended\":0,\"chains\":0,\"states\":0,\"steps\":0,\"workers\":0}") == 0,
	      "a new world's stats: %s", stats ? stats : "NULL");
	ploy_free(stats);
	CHECK(ploy_world_frame(w) == 0, "a frame of no agents");
	stats = ploy_world_frame_stats(w);
	CHECK(stats != NULL && strcmp(stats, "{\"slice\":3,\"taken\":0,\"ended\":0,\"suspended\":0,\"chains\":0,\"states\":0,\"steps\":0,\"workers\":1}") == 0,
	      "a frame's stats: %s", stats ? stats : "NULL");
	ploy_free(stats);
	ploy_release(w);
	CHECK(ploy_world_frame_stats(w) == NULL, "the stats of a released world");
	expect("ploy_world_frame_stats(released)", "no such handle");

	/* The whole camp, then the sliced one for three times the frames, on
	 * one worker of its two (a share no frame reaches). */
	camp_new(&whole, d, 0);
	long most_chains = 0;
	int whole_first = 0;
	for (int i = 0; i < 150; i++) {
		int made;
		char *st = frame(&whole, &made);
		if (i == 0) {
			whole_first = made;
			CHECK(st != NULL && number(st, "workers") == 2, "the first whole frame, every agent asking: %s", st ? st : "NULL");
		}
		if (st != NULL && number(st, "chains") > most_chains)
			most_chains = number(st, "chains");
		CHECK(st != NULL && number(st, "slice") == 0 && number(st, "suspended") == 0, "a whole frame: %s", st ? st : "NULL");
		ploy_free(st);
	}
	camp_new(&sliced, d, slice);
	/* And on one of its two workers: the plans do not depend on it. */
	CHECK(ploy_world_set_min_share(sliced.w, INT64_MAX) == 0, "ploy_world_set_min_share(INT64_MAX)");
	long suspended = 0, bound = PLANS_PER_FRAME * slice;
	int sliced_first = 0;
	/* Stop at a frame's first failure, not at the checks' above. */
	int failed_before = failures;
	for (int i = 0; i < 450 && failures == failed_before; i++) {
		int made;
		char *st = frame(&sliced, &made);
		if (i == 0)
			sliced_first = made;
		if (st == NULL)
			continue;
		CHECK(number(st, "slice") == slice, "frame %d ran with another slice: %s", i, st);
		CHECK(number(st, "workers") == 1, "frame %d ran on more than one worker: %s", i, st);
		CHECK(number(st, "chains") <= bound, "frame %d expanded more than %ld chains: %s", i, bound, st);
		CHECK(number(st, "ended") + number(st, "suspended") == number(st, "taken"), "frame %d: %s", i, st);
		suspended += number(st, "suspended");
		ploy_free(st);
	}
	/* The bound says something only if a whole frame goes past it, and
	 * the camp was sliced only if searches were suspended. */
	CHECK(most_chains > bound, "whole frames expanded at most %ld chains: no test of a bound of %ld", most_chains, bound);
	CHECK(suspended > 0 && sliced_first < whole_first, "%ld suspensions; %d plans in the sliced camp's first frame, %d whole",
	      suspended, sliced_first, whole_first);

	/* Each agent's events: the whole camp's are where the sliced camp's
	 * begin (it ran three times the frames, and caught up). */
	long plans = 0;
	for (int i = 0; i < AGENTS && failures == failed_before; i++) {
		struct text *a = &whole.s[i].events, *b = &sliced.s[i].events;
		CHECK(a->len > 0 && b->len >= a->len && memcmp(a->s, b->s, a->len) == 0,
		      "agent s%d: whole\n%.600s\nsliced\n%.600s", i, a->s ? a->s : "", b->s ? b->s : "");
		for (const char *p = a->s; p && (p = strstr(p, "\"kind\":\"plan_made\"")) != NULL; p++)
			plans++;
	}
	CHECK(plans >= AGENTS, "only %ld plans made by %d agents: too few to compare", plans, AGENTS);
	printf("slice %lld: %ld plans compared, %ld suspensions, whole frames up to %ld chains, sliced at most %ld\n", slice, plans,
	       suspended, most_chains, bound);

	ploy_release(whole.w);
	ploy_release(sliced.w);
	ploy_release(d);
	for (int i = 0; i < AGENTS; i++) {
		free(whole.s[i].events.s);
		free(sliced.s[i].events.s);
	}
	CHECK(ploy_held() == 0, "%d handles held at the end", ploy_held());
	if (failures > 0)
		return 1;
	printf("ok\n");
	return 0;
}
