// A C# program that drives ploy through Ploy.cs, as a Unity or Godot
// script would: it plans Kill (cost 7), runs five mages of the battle
// mage's kinds for 60 frames, and checks that failures come back as
// PloyException with the library's message. bindings/c/ctest builds it
// with Mono's mcs and runs it where Mono is installed. It prints "ok"
// and exits 0, or says what failed and exits 1.
//
//     mcs -out:PloyTest.exe bindings/csharp/Ploy.cs bindings/csharp/test/PloyTest.cs
//     LD_LIBRARY_PATH=DIR_OF_LIBPLOY mono PloyTest.exe domains/battlemage.yaml
using System;
using System.IO;
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
        Check(Native.ploy_held() == 0, "handles held after Dispose: " + Native.ploy_held());
        if (failures > 0)
            return 1;
        Console.WriteLine("ok");
        return 0;
    }
}
