package viewer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ploy-ai/ploy/internal/testkit/browser"
	"github.com/ploy-ai/ploy/viewer"
)

// treeFigure is what figure 5 shows, read from the page.
type treeFigure struct {
	Seq         int      `json:"seq"`
	Verdict     string   `json:"verdict"` // data-verdict: both, goap, tree, neither
	VerdictText string   `json:"verdictText"`
	TreeStatus  string   `json:"treeStatus"`
	Ticks       []string `json:"ticks"`
	Idle        int      `json:"idle"` // ticks shown as idle
	Ran         []string `json:"ran"`  // the branches marked as run
	GOAPStatus  string   `json:"goapStatus"`
	GOAPSummary string   `json:"goapSummary"`
	GOAPPlan    []string `json:"goapPlan"`
	Error       string   `json:"error"`
	ErrorShown  bool     `json:"errorShown"`
	Note        string   `json:"note"` // the note on a domain that is not the soldier's
	NoteShown   bool     `json:"noteShown"`
	// The verdict's colour and the page's red for errors, as computed.
	VerdictColor string `json:"verdictColor"`
	Red          string `json:"red"`
}

const readTree = `(() => {
	const f = document.getElementById('tree-figure');
	const texts = (sel) => [...f.querySelectorAll(sel)].map((e) => e.textContent);
	return {
		seq: Number(f.dataset.seq), verdict: f.dataset.verdict || '',
		verdictText: document.getElementById('tree-verdict').textContent,
		treeStatus: document.getElementById('tree-status').textContent,
		ticks: texts('#tree-ticks li'), idle: f.querySelectorAll('#tree-ticks li.idle').length,
		ran: texts('#tree-branches li.ran .branch-name'),
		goapStatus: document.getElementById('tree-goap-status').textContent,
		goapSummary: document.getElementById('tree-goap-summary').textContent,
		goapPlan: texts('#tree-goap-plan .action'),
		error: document.getElementById('tree-error').textContent,
		errorShown: !document.getElementById('tree-error').hidden,
		note: document.getElementById('tree-note').textContent.replace(/\s+/g, ' '),
		noteShown: !document.getElementById('tree-note').hidden,
		verdictColor: getComputedStyle(document.getElementById('tree-verdict')).color,
		red: getComputedStyle(document.getElementById('tree-error')).color,
	};
})()`

// newTree runs act and waits for figure 5 to show an answer newer than
// seq (and figure 1 its own).
func newTree(t *testing.T, tab context.Context, seq int, what string, act chromedp.Action[chromedp.Void]) treeFigure {
	t.Helper()
	waitAnswer(t, tab, "tree-figure", seq, what, act)
	return browser.Read[treeFigure](t, tab, "figure 5", readTree)
}

// wantTree checks figure 5 against the tree and plan APIs' answers for
// the soldier's start state with unset facts off.
func wantTree(t *testing.T, server string, f treeFigure, name string, unset ...string) (treeAnswer, planAnswer) {
	t.Helper()
	req := fmt.Sprintf(`{"domain": "soldier.yaml", "unset": %s}`, mustJSON(append([]string{}, unset...)))
	var tr treeAnswer
	if code, body := postTo(t, server, "/api/v1/tree", req); code != 200 || json.Unmarshal(body, &tr) != nil {
		t.Fatalf("%s: the tree API: %d %s", name, code, body)
	}
	var pl planAnswer
	if code, body := postTo(t, server, "/api/v1/plan", strings.Replace(req, "{", `{"goal": "KillPlayer", `, 1)); code != 200 || json.Unmarshal(body, &pl) != nil {
		t.Fatalf("%s: the plan API: %d %s", name, code, body)
	}
	if f.Error != "" {
		t.Fatalf("%s: figure 5 shows an error: %s", name, f.Error)
	}
	if len(f.Ticks) != len(tr.Ticks) {
		t.Errorf("%s: %d ticks shown %q, the API ran %d", name, len(f.Ticks), f.Ticks, len(tr.Ticks))
	}
	for i, tk := range tr.Ticks {
		if i < len(f.Ticks) && !strings.Contains(f.Ticks[i], tk.Branch+": "+strings.Join(tk.Actions, " → ")) && tk.Branch != "" {
			t.Errorf("%s: tick %d shows %q, the API ran %s: %q", name, i+1, f.Ticks[i], tk.Branch, tk.Actions)
		}
	}
	if pl.Status == "found" {
		if want := fmt.Sprintf("%d steps · cost %v", len(pl.Plan), pl.Cost); f.GOAPStatus != "plans" || f.GOAPSummary != want || !slices.Equal(f.GOAPPlan, pl.Plan) {
			t.Errorf("%s: GOAP shows %q, %q, %q; the API plans %q at cost %v", name, f.GOAPStatus, f.GOAPSummary, f.GOAPPlan, pl.Plan, pl.Cost)
		}
	} else if f.GOAPStatus != "no plan" || len(f.GOAPPlan) != 0 {
		t.Errorf("%s: GOAP shows %q, %q; the API says %s", name, f.GOAPStatus, f.GOAPPlan, pl.Status)
	}
	return tr, pl
}

// TestBrowserTree drives figure 5: on the soldier's default state both the
// tree and GOAP act; with gun_nearby off the tree idles while GOAP plans
// with the axe; with both weapons off neither acts. Values are the tree
// and plan APIs' answers.
func TestBrowserTree(t *testing.T) {
	s := newServer(t, viewer.Config{LoopbackOnly: true})
	ts, tab := servePage(t, s, 40*time.Second)

	f := newTree(t, tab, 0, "opening the page", chromedp.Navigate(ts.URL+"/"))
	// The default domain is not the soldier's: a note says so, not an
	// error in red.
	if f.ErrorShown || f.Error != "" || !f.NoteShown || !strings.Contains(f.Note, "The tree is written for the soldier: battlemage.yaml has no goal KillPlayer") {
		t.Errorf("the battle mage: figure 5's error %q (shown %v), note %q (shown %v); want no error and a note that the tree is the soldier's", f.Error, f.ErrorShown, f.Note, f.NoteShown)
	}
	browser.Screenshot(t, tab, "tree-figure", "tree-battlemage")

	f = newTree(t, tab, f.Seq, "the soldier", choose("domain", "soldier.yaml"))
	if f.NoteShown {
		t.Errorf("the soldier: the note that the tree is the soldier's still shows: %q", f.Note)
	}
	tr, pl := wantTree(t, ts.URL, f, "default")
	if tr.Status != "done" || pl.Status != "found" {
		t.Fatalf("default: the tree API says %s, the plan API %s; want done and found", tr.Status, pl.Status)
	}
	if f.Verdict != "both" || !strings.HasPrefix(f.VerdictText, "Both act") || f.Idle != 0 ||
		f.TreeStatus != fmt.Sprintf("kills the player in %d steps", len(tr.Steps)) || !slices.Equal(f.Ran, []string{"shoot"}) {
		t.Errorf("default: verdict %s %q, tree %q, %d idle ticks, branches run %q; want both act, %d steps, none idle, shoot", f.Verdict, f.VerdictText, f.TreeStatus, f.Idle, f.Ran, len(tr.Steps))
	}

	// The gun is not where the tree's author expected it: the tree idles,
	// GOAP takes the axe.
	f = newTree(t, tab, f.Seq, "gun_nearby off", toggle("gun_nearby"))
	tr, pl = wantTree(t, ts.URL, f, "gun_nearby off", "gun_nearby")
	if tr.Status != "idle" || pl.Status != "found" {
		t.Fatalf("gun_nearby off: the tree API says %s, the plan API %s; want idle and found", tr.Status, pl.Status)
	}
	if f.Verdict != "goap" || !strings.HasPrefix(f.VerdictText, "Only GOAP acts") || f.TreeStatus != "idle ⚠" || f.Idle != 1 || !strings.Contains(f.Ticks[len(f.Ticks)-1], "idle") {
		t.Errorf("gun_nearby off: verdict %s %q, tree %q, ticks %q; want only GOAP acts, the tree idle", f.Verdict, f.VerdictText, f.TreeStatus, f.Ticks)
	}
	// Only GOAP acting is the figure's point, not an error: not in red.
	if f.VerdictColor == f.Red || f.Red != "rgb(207, 34, 46)" {
		t.Errorf("gun_nearby off: the verdict in %s, the page's error red %s; want the verdict not red", f.VerdictColor, f.Red)
	}
	if pl.Plan[0] != "PickUpAxe" {
		t.Errorf("gun_nearby off: GOAP plans %q, want the axe first", pl.Plan)
	}
	browser.Screenshot(t, tab, "tree-figure", "tree-gun-off")

	// Both weapons off: no route exists, and neither acts.
	f = newTree(t, tab, f.Seq, "axe_nearby off too", toggle("axe_nearby"))
	tr, pl = wantTree(t, ts.URL, f, "both weapons off", "axe_nearby", "gun_nearby")
	if tr.Status != "idle" || pl.Status != "no_plan" || f.Verdict != "neither" || f.TreeStatus != "idle ⚠" {
		t.Errorf("both weapons off: APIs %s and %s, figure %s, tree %q; want idle, no_plan, neither, idle", tr.Status, pl.Status, f.Verdict, f.TreeStatus)
	}

	// The figure's own link to the combination: figure 1 follows it, and
	// figure 5 shows the tree idle where GOAP plans.
	f = newTree(t, tab, f.Seq, "the figure's example", chromedp.Click(chromedp.ID("tree-example")))
	wantTree(t, ts.URL, f, "the figure's example", "gun_nearby")
	if p := shown(t, tab); p.Domain != "soldier.yaml" || p.Goal != "KillPlayer" || slices.Contains(p.On, "gun_nearby") || !slices.Contains(p.On, "axe_nearby") {
		t.Errorf("the figure's example: figure 1 on %s, %s, facts %q; want the soldier's KillPlayer, gun_nearby off, axe_nearby on", p.Domain, p.Goal, p.On)
	}
	if f.Verdict != "goap" || f.TreeStatus != "idle ⚠" {
		t.Errorf("the figure's example: verdict %s, tree %q; want only GOAP acts, the tree idle", f.Verdict, f.TreeStatus)
	}
}
