// Runs the C# champion (class Prologin.Prologin) under the protocol of protocol.md. The
// launcher moves the referee's pipes to fds 3 and 4 and points fd 1 at stderr, fd 0 at
// /dev/null: Console.Out thus goes to the log. Callbacks are the public no-argument
// methods InitGame, Jouer, Enchere, Placement, EndGame of one Prologin instance, or, in
// the 2009 form, its static methods init_game, jouer, enchere, placement, end_game (of
// any visibility, as the 2009 skeleton declared them); a callback it lacks does nothing.
using System;
using System.IO;
using System.Reflection;

namespace Prologin
{
    static class ProloginMain
    {
        static readonly string[] Wire = { "init_game", "jouer", "enchere", "placement", "end_game" };
        static readonly string[] Methods = { "InitGame", "Jouer", "Enchere", "Placement", "EndGame" };

        static int Main()
        {
            try
            {
                Api.Connect(new FdStream(3), new FdStream(4));
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("prologin kit (C#): fds 3 and 4 must be the referee's pipes: " +
                    "start the champion with its `champion` launcher (" + e.Message + ")");
                return 2;
            }
            Console.SetIn(new StringReader(""));
            Type type = typeof(Prologin);
            object champion = Activator.CreateInstance(type);
            var methods = new MethodInfo[Methods.Length];
            for (int i = 0; i < Methods.Length; i++)
                methods[i] = type.GetMethod(Methods[i], BindingFlags.Public | BindingFlags.Instance, null, Type.EmptyTypes, null)
                    ?? type.GetMethod(Wire[i], BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static, null, Type.EmptyTypes, null);
            bool ended = false;
            for (;;)
            {
                string name = Api.ReadText();
                if (name == null) break;
                int k = Array.IndexOf(Wire, name);
                if (k < 0)
                    Api.Fail("unknown callback `" + name.Substring(0, Math.Min(60, name.Length)) + "` from the referee");
                Api.Callback = name;
                ended = k == 4;
                Api.MarkDirty();
                if (methods[k] != null)
                {
                    try
                    {
                        methods[k].Invoke(methods[k].IsStatic ? null : champion, null);
                    }
                    catch (TargetInvocationException e)
                    {
                        // The champion's exception: its trace, then the kit's line naming
                        // it, last in the log, which the referee's crash report quotes.
                        Exception cause = e.InnerException;
                        Console.Out.Flush();
                        Console.Error.WriteLine(cause);
                        Console.Error.WriteLine("prologin kit (C#): error in " + name + ": "
                            + cause.GetType().FullName + ": " + cause.Message);
                        Console.Error.Flush();
                        return 1;
                    }
                }
                Console.Out.Flush();
                Api.Send("fin\n");
            }
            if (!ended)
            {
                Console.Error.WriteLine("prologin kit (C#): the referee closed the connection before end_game");
                return 1;
            }
            return 0;
        }
    }
}
