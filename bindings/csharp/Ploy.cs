// Ploy.cs: ploy's C library (bindings/c/ploy.h) for C#: Unity, Godot's
// C#, or any .NET program. Copy this file into the project and put the
// native library beside the program, where the runtime looks for "ploy":
// libploy.so on Linux, libploy.dylib on macOS, ploy.dll on Windows
// (build it with `go build -buildmode=c-shared -o libploy.so
// ./bindings/c`; bindings/csharp/README.md says more).
//
// Two layers:
//   - Ploy.Native: the C functions as they are, one [DllImport] each, with
//     the same names, parameters and meaning as ploy.h, which documents
//     them. Handles are ulong. A char * the library returns for the
//     caller to free is an IntPtr: read it with Ploy.Native.TakeString,
//     which frees it.
//   - Ploy.Domain, Ploy.World, Ploy.Agent: a small safe wrapper that
//     throws PloyException with the library's message where a C call
//     fails, frees every string the library returns, and releases its
//     handle on Dispose.
//
// Threads: every function may be called from any thread (ploy.h). The
// thread's last error (ploy_last_error) is read on the thread that made
// the failing call, straight after it, which is what the wrapper does.

using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Ploy
{
    /// <summary>The C API of ploy.h, declared one to one.</summary>
    public static class Native
    {
        const string Lib = "ploy";

        public const int PLOY_RUNNING = 0, PLOY_SUCCESS = 1, PLOY_FAILURE = 2;
        public const int PLOY_IDLE = 0, PLOY_ACTING = 1, PLOY_WALKING = 2;

        // Strings passed in are UTF-8, NUL-terminated: byte[] from Utf8Z,
        // so that the marshalling is the same on every runtime (Mono,
        // .NET Framework and .NET alike).

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern ulong ploy_load(byte[] source, UIntPtr len, byte[] name, out IntPtr error);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern ulong ploy_load_pddl(byte[] domain, UIntPtr domain_len, byte[] domain_name,
            byte[] problem, UIntPtr problem_len, byte[] problem_name, out IntPtr error);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_call(ulong d, byte[] method, byte[] request_json);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_methods(ulong d);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_kinds(ulong d);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern void ploy_release(ulong handle);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_held();

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern void ploy_free(IntPtr p);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_last_error();

        /// <summary>A static string: never pass it to ploy_free.</summary>
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_version();

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern ulong ploy_world_new(ulong d, int workers);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_world_record(ulong w, int max_decisions, long max_bytes);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_world_decisions(ulong w);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_world_frame(ulong w);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_world_set_slice(ulong w, long expansions);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_world_set_min_share(ulong w, long share);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_world_frame_stats(ulong w);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern ulong ploy_agent_new(ulong w, byte[] kind, byte[] name, out IntPtr error);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_set(ulong a, byte[] fact_or_key, double value);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_set_position(ulong a, double x, double y);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_set_target(ulong a, byte[] key, double x, double y, int found);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_action(ulong a, byte[] buf, UIntPtr n);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_destination(ulong a, out double x, out double y);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_report(ulong a, int status);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_agent_events(ulong a);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern IntPtr ploy_agent_state(ulong a);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        public static extern int ploy_agent_trace_decisions(ulong a, int on);

        /// <summary>s as UTF-8 with a NUL, for a const char * (null stays null).</summary>
        public static byte[] Utf8Z(string s)
        {
            if (s == null) return null;
            var b = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, b, 0);
            return b;
        }

        /// <summary>The UTF-8 string at p (null for IntPtr.Zero), without freeing it.</summary>
        public static string PeekString(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var b = new byte[n];
            Marshal.Copy(p, b, 0, n);
            return Encoding.UTF8.GetString(b);
        }

        /// <summary>The UTF-8 string at p, which the library returned for the caller to free: it is freed.</summary>
        public static string TakeString(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            try { return PeekString(p); }
            finally { ploy_free(p); }
        }

        /// <summary>The calling thread's last error, taken (and freed), or a fallback.</summary>
        public static string LastError()
        {
            return TakeString(ploy_last_error()) ?? "ploy: a call failed with no message";
        }
    }

    /// <summary>A call of the C library failed; Message is the library's.</summary>
    public class PloyException : Exception
    {
        public PloyException(string message) : base(message) { }
    }

    /// <summary>What an agent does now (ploy.h's PLOY_IDLE, PLOY_ACTING, PLOY_WALKING).</summary>
    public enum Doing { Idle = 0, Acting = 1, Walking = 2 }

    /// <summary>How an action went (PLOY_RUNNING, PLOY_SUCCESS, PLOY_FAILURE).</summary>
    public enum Status { Running = 0, Success = 1, Failure = 2 }

    /// <summary>A handle the wrapper holds, released on Dispose.</summary>
    public abstract class Handle : IDisposable
    {
        public ulong Value { get; private set; }
        protected Handle(ulong value) { Value = value; }
        public void Dispose()
        {
            if (Value != 0) Native.ploy_release(Value);
            Value = 0;
        }

        protected static void Check(int result)
        {
            if (result < 0) throw new PloyException(Native.LastError());
        }

        protected static string Json(IntPtr p)
        {
            if (p == IntPtr.Zero) throw new PloyException(Native.LastError());
            return Native.TakeString(p);
        }
    }

    /// <summary>A loaded domain file (ploy_load, ploy_load_pddl).</summary>
    public sealed class Domain : Handle
    {
        Domain(ulong h) : base(h) { }

        /// <summary>ploy's version (ploy_version).</summary>
        public static string Version { get { return Native.PeekString(Native.ploy_version()); } }

        /// <summary>Loads a YAML domain file's text; name names it in errors.</summary>
        public static Domain Load(string source, string name)
        {
            var src = Encoding.UTF8.GetBytes(source);
            IntPtr error;
            ulong h = Native.ploy_load(src, (UIntPtr)src.Length, Native.Utf8Z(name), out error);
            if (h == 0) throw new PloyException(Native.TakeString(error));
            return new Domain(h);
        }

        /// <summary>Loads a PDDL domain and problem.</summary>
        public static Domain LoadPDDL(string domain, string domainName, string problem, string problemName)
        {
            var d = Encoding.UTF8.GetBytes(domain);
            var p = Encoding.UTF8.GetBytes(problem);
            IntPtr error;
            ulong h = Native.ploy_load_pddl(d, (UIntPtr)d.Length, Native.Utf8Z(domainName),
                p, (UIntPtr)p.Length, Native.Utf8Z(problemName), out error);
            if (h == 0) throw new PloyException(Native.TakeString(error));
            return new Domain(h);
        }

        /// <summary>
        /// The JSON API's answer for method ("plan", "resolve", ...) to
        /// requestJson: the answer, or an error object
        /// {"error","field","status"}, as ploy_call returns it.
        /// </summary>
        public string Call(string method, string requestJson)
        {
            return Json(Native.ploy_call(Value, Native.Utf8Z(method), Native.Utf8Z(requestJson)));
        }

        /// <summary>The methods Call answers, as a JSON array.</summary>
        public string Methods() { return Json(Native.ploy_methods(Value)); }

        /// <summary>The file's agent kinds, as a JSON array: the names NewAgent takes.</summary>
        public string Kinds() { return Json(Native.ploy_kinds(Value)); }

        /// <summary>A world of this file's agent kinds, planning on workers threads.</summary>
        public World NewWorld(int workers)
        {
            ulong w = Native.ploy_world_new(Value, workers);
            if (w == 0) throw new PloyException(Native.LastError());
            return new World(w);
        }
    }

    /// <summary>Agents of one domain's kinds, on one plan queue (ploy_world_*).</summary>
    public sealed class World : Handle
    {
        internal World(ulong h) : base(h) { }

        /// <summary>Keep the agents' decisions; call before adding agents.</summary>
        public void Record(int maxDecisions, long maxBytes) { Check(Native.ploy_world_record(Value, maxDecisions, maxBytes)); }

        /// <summary>The decisions recorded, as a decision recording (JSON Lines).</summary>
        public string Decisions() { return Json(Native.ploy_world_decisions(Value)); }

        /// <summary>One frame; returns how many plans it made.</summary>
        public int Frame()
        {
            int n = Native.ploy_world_frame(Value);
            Check(n);
            return n;
        }

        /// <summary>
        /// Slices each engine-model agent's search to at most expansions
        /// chains a frame (ploy_world_set_slice): a search that reaches it
        /// goes on next frame and ends with the plan it would have found
        /// whole. 0, the default, runs searches whole; a negative slice
        /// throws.
        /// </summary>
        public void SetSlice(long expansions) { Check(Native.ploy_world_set_slice(Value, expansions)); }

        /// <summary>
        /// Wakes a worker only for at least share plans each
        /// (ploy_world_set_min_share): a frame of n plans runs on at most
        /// n / share of the world's workers, so that a small frame does
        /// not pay for waking them. The plans are the same whichever the
        /// share; 1, the default, wakes every worker. A share below 1
        /// throws.
        /// </summary>
        public void SetMinShare(long share) { Check(Native.ploy_world_set_min_share(Value, share)); }

        /// <summary>
        /// What the last frame did, as JSON {"slice", "taken", "ended",
        /// "suspended", "chains", "states", "steps", "workers"}
        /// (ploy_world_frame_stats).
        /// </summary>
        public string FrameStats() { return Json(Native.ploy_world_frame_stats(Value)); }

        /// <summary>An agent of kind (a name of the file's agents: section); name may be null.</summary>
        public Agent NewAgent(string kind, string name)
        {
            IntPtr error;
            ulong a = Native.ploy_agent_new(Value, Native.Utf8Z(kind), Native.Utf8Z(name), out error);
            if (a == 0) throw new PloyException(Native.TakeString(error));
            return new Agent(a);
        }
    }

    /// <summary>One agent (ploy_agent_*). Releasing its world releases it too.</summary>
    public sealed class Agent : Handle
    {
        readonly byte[] buf = new byte[256];

        internal Agent(ulong h) : base(h) { }

        /// <summary>A fact (true when value is not 0), an input, or a key.</summary>
        public void Set(string factOrKey, double value) { Check(Native.ploy_agent_set(Value, Native.Utf8Z(factOrKey), value)); }

        public void SetPosition(double x, double y) { Check(Native.ploy_agent_set_position(Value, x, y)); }

        public void SetTarget(string key, double x, double y, bool found)
        {
            Check(Native.ploy_agent_set_target(Value, Native.Utf8Z(key), x, y, found ? 1 : 0));
        }

        /// <summary>What to do now, and the action's name ("" when idle).</summary>
        public Doing Action(out string action)
        {
            int doing = Native.ploy_agent_action(Value, buf, (UIntPtr)buf.Length);
            Check(doing);
            int n = Array.IndexOf(buf, (byte)0);
            action = Encoding.UTF8.GetString(buf, 0, n < 0 ? 0 : n);
            return (Doing)doing;
        }

        /// <summary>Where a walking agent is headed; false if it is not walking.</summary>
        public bool Destination(out double x, out double y)
        {
            int walking = Native.ploy_agent_destination(Value, out x, out y);
            Check(walking);
            return walking == 1;
        }

        public void Report(Status status) { Check(Native.ploy_agent_report(Value, (int)status)); }

        /// <summary>The events since the last call, as JSON {"events": [...], "dropped": N}.</summary>
        public string Events() { return Json(Native.ploy_agent_events(Value)); }

        /// <summary>The agent's goal, plan, action and beliefs, as JSON.</summary>
        public string State() { return Json(Native.ploy_agent_state(Value)); }

        public void TraceDecisions(bool on) { Check(Native.ploy_agent_trace_decisions(Value, on ? 1 : 0)); }
    }
}
