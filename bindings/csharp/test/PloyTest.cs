// A C# program that drives ploy through Ploy.cs, as a Unity or Godot
// script would: it plans Kill (cost 7), runs five mages of the battle
// mage's kinds for 60 frames, and checks that failures come back as
// PloyException with the library's message. bindings/c/ctest builds it
// with Mono's mcs and runs it where Mono is installed. It prints "ok"
// and exits 0, or says what failed and exits 1.
//
//     mcs -out:PloyTest.exe bindings/csharp/Ploy.cs bindings/csharp/test/PloyTest.cs
//     LD_LIBRARY_PATH=DIR_OF_LIBPLOY mono PloyTest.exe domains/battlemage.yaml domains/survivor.yaml
//
// With the survivor's file it also runs a camp of survivors twice, whole
// and sliced (World.SetSlice): the same plans, later, and no frame past
// its chains' bound (World.FrameStats).
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;
using Ploy;

static class PloyTest
{
    static int failures;

    static void Check(bool ok, string what)
    {
        if (!ok)
        {
            Console.Error.WriteLine("failed: " + what);
            failures++;
        }
    }

    static void Throws(Action f, string says, string what)
    {
        try
        {
            f();
            Check(false, what + ": no exception");
        }
        catch (PloyException e)
        {
            Check(e.Message.Contains(says), what + ": " + e.Message);
        }
    }

    // A camp of survivors, as bindings/c/ctest/testdata/slice.c runs it:
    // each cold and hungry to its own degree, standing in its own place;
    // the engine walks each a unit a frame and pushes what its actions
    // change.
    sealed class Camp : IDisposable
    {
        public const int Agents = 300; // more than a frame plans: some wait in line
        public readonly World W;
        readonly Agent[] agents = new Agent[Agents];
        readonly double[] x = new double[Agents], y = new double[Agents];
        readonly double[] warmth = new double[Agents], hunger = new double[Agents];
        public readonly StringBuilder[] Events = new StringBuilder[Agents];
        static readonly Regex tick = new Regex("\"tick\":\\d+,");

        public Camp(Domain d, long slice)
        {
            W = d.NewWorld(2);
            if (slice > 0) W.SetSlice(slice);
            for (int i = 0; i < Agents; i++)
            {
                var a = agents[i] = W.NewAgent(i % 3 == 2 ? "wounded" : "survivor", "s" + i);
                x[i] = i % 7 - 3; y[i] = i % 5 - 2;
                warmth[i] = 10 + i % 40; hunger[i] = 40 + i % 55;
                a.Set("warmth", warmth[i]);
                a.Set("hunger", hunger[i]);
                a.SetPosition(x[i], y[i]);
                Events[i] = new StringBuilder();
            }
        }

        public void Dispose() { W.Dispose(); }

        static long Number(string json, string key)
        {
            var m = Regex.Match(json, "\"" + key + "\":(\\d+)");
            return m.Success ? long.Parse(m.Groups[1].Value) : -1;
        }

        // Frame runs a frame and the engine's answers; it returns the
        // plans made and the frame's chains, slice and counts.
        public int Frame(out long chains, out long slice, out long suspended, out bool adds)
        {
            int made = W.Frame();
            string st = W.FrameStats();
            chains = Number(st, "chains");
            slice = Number(st, "slice");
            suspended = Number(st, "suspended");
            adds = Number(st, "ended") + suspended == Number(st, "taken");
            for (int i = 0; i < Agents; i++)
            {
                Act(i);
                // The frame an event happened in is what a slice may change.
                string ev = tick.Replace(agents[i].Events(), "");
                int from = ev.IndexOf("\"events\":[") + 10, to = ev.LastIndexOf("],\"dropped\"");
                if (to > from) Events[i].Append(ev, from, to - from).Append(',');
            }
            return made;
        }

        void Act(int i)
        {
            var a = agents[i];
            string name;
            Doing doing = a.Action(out name);
            if (doing == Doing.Walking)
            {
                double tx, ty;
                a.Destination(out tx, out ty);
                double dx = tx - x[i], dy = ty - y[i];
                double n = Math.Max(1, Math.Abs(dx) + Math.Abs(dy));
                x[i] += dx / n; y[i] += dy / n;
                a.SetPosition(x[i], y[i]);
            }
            else if (doing == Doing.Acting)
            {
                switch (name)
                {
                    case "GatherWoodNorth": case "GatherWoodSouth": a.Set("has_wood", 1); break;
                    case "LightFire": a.Set("fire_lit", 1); a.Set("has_wood", 0); break;
                    case "WarmUp": warmth[i] += 10; a.Set("warmth", warmth[i]); break;
                    case "Forage": case "Hunt": a.Set("has_food", 1); break;
                    case "Eat": hunger[i] = Math.Max(0, hunger[i] - 40); a.Set("hunger", hunger[i]); a.Set("has_food", 0); break;
                }
                a.Report(Status.Success);
            }
        }
    }

    // Sliced checks World.SetSlice, World.SetMinShare and World.FrameStats: bad arguments
    // throw, and a sliced camp makes the whole camp's plans, later,
    // never past 256 (a frame's plans) × the slice chains a frame.
    static void Sliced(string survivor)
    {
        using (var d = Domain.Load(survivor, "survivor.yaml"))
        {
            using (var w = d.NewWorld(1))
            {
                w.SetSlice(3);
                Throws(() => w.SetSlice(-1), "slice -1: a slice is 0 (none) or a number of chain expansions", "a negative slice");
                Throws(() => w.SetMinShare(0), "share 0: a share is at least 1 plan a worker", "a share of 0");
                w.SetMinShare(64);
                w.Frame();
                Check(w.FrameStats() == "{\"slice\":3,\"taken\":0,\"ended\":0,\"suspended\":0,\"chains\":0,\"states\":0,\"steps\":0,\"workers\":1}",
                    "a frame's stats: " + w.FrameStats());
            }
            const long slice = 1;
            long chains, got, suspended, mostWhole = 0, allSuspended = 0;
            bool adds;
            using (var whole = new Camp(d, 0))
            using (var sliced = new Camp(d, slice))
            {
                int wholeFirst = 0, slicedFirst = 0;
                for (int f = 0; f < 150; f++)
                {
                    int made = whole.Frame(out chains, out got, out suspended, out adds);
                    if (f == 0) wholeFirst = made;
                    mostWhole = Math.Max(mostWhole, chains);
                }
                for (int f = 0; f < 450; f++)
                {
                    int made = sliced.Frame(out chains, out got, out suspended, out adds);
                    if (f == 0) slicedFirst = made;
                    allSuspended += suspended;
                    if (got != slice || chains > 256 * slice || !adds)
                    {
                        Check(false, "sliced frame " + f + ": slice " + got + ", " + chains + " chains, counts add up " + adds);
                        break;
                    }
                }
                Check(mostWhole > 256 * slice && allSuspended > 0 && slicedFirst < wholeFirst,
                    "whole frames up to " + mostWhole + " chains; " + allSuspended + " suspensions; first frames made " + slicedFirst + " and " + wholeFirst + " plans");
                int plans = 0;
                for (int i = 0; i < Camp.Agents; i++)
                {
                    string a = whole.Events[i].ToString(), b = sliced.Events[i].ToString();
                    if (a.Length == 0 || !b.StartsWith(a, StringComparison.Ordinal))
                    {
                        Check(false, "agent s" + i + ": whole\n" + a + "\nsliced\n" + b);
                        break;
                    }
                    plans += Regex.Matches(a, "\"kind\":\"plan_made\"").Count;
                }
                Check(plans >= Camp.Agents, "only " + plans + " plans compared");
                Console.WriteLine("sliced: " + plans + " plans compared, " + allSuspended + " suspensions, whole frames up to " + mostWhole + " chains");
            }
        }
    }

    static int Main(string[] args)
    {
        string source = File.ReadAllText(args[0]);
        Check(Domain.Version.Length > 0, "a version");
        using (var d = Domain.Load(source, "battlemage.yaml"))
        {
            string plan = d.Call("plan", "{\"goal\":\"Kill\"}");
            Console.WriteLine("plan Kill: " + plan.Trim());
            Check(plan.Contains("\"cost\":7"), "Kill at cost 7");
            Check(d.Call("plan", null).Contains("\"status\":400"), "an empty request");
            Check(d.Methods().Contains("\"plan\""), "methods");
            Throws(() => Domain.Load("name: x\nfacts: [a]\nactions:\n  - name: A\n    effects: {b: true}\n    cost: 1\n", "mine.yaml"),
                "mine.yaml:5:15: unknown fact \"b\"", "a bad file");
            Throws(() => d.NewWorld(0), "workers must be from 1 to 64", "no workers");
            using (var w = d.NewWorld(2))
            {
                w.Record(0, 0);
                string[] kinds = { "goap", "htn", "htn-break", "bt", "utility" };
                var agents = new Agent[kinds.Length];
                for (int i = 0; i < kinds.Length; i++)
                    agents[i] = w.NewAgent(kinds[i], null);
                Throws(() => w.NewAgent("gaop", "m"), "did you mean \"goap\"", "an unknown kind");
                Throws(() => agents[0].Set("in_rnge", 1), "did you mean \"in_range\"", "an unknown fact");
                Throws(() => agents[0].Report(Status.Success), "runs no action", "a report of no action");
                int done = 0;
                for (int frame = 0; frame < 60; frame++)
                {
                    w.Frame();
                    foreach (var a in agents)
                    {
                        string action;
                        if (a.Action(out action) != Doing.Acting)
                            continue;
                        Check(action.Length > 0, "an action's name");
                        a.Report(Status.Success);
                        done++;
                    }
                }
                Console.WriteLine("actions done: " + done);
                Check(done >= 20, "the mages acted");
                Check(agents[0].Events().Contains("\"events\""), "events");
                Check(agents[0].State().Contains("\"kind\":\"goap\""), "state");
                Check(w.Decisions().Contains("\"domain_hash\""), "decisions");
                double x, y;
                Check(!agents[0].Destination(out x, out y), "a GOAP agent walks nowhere");
            }
        }
        if (args.Length > 1)
            Sliced(File.ReadAllText(args[1]));
        Check(Native.ploy_held() == 0, "handles held after Dispose: " + Native.ploy_held());
        if (failures > 0)
            return 1;
        Console.WriteLine("ok");
        return 0;
    }
}
