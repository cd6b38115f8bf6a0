// The API of "La loi du plus riche" (Prologin 2009 final), C# kit: the 26 functions as
// static methods of Prologin.Api, named as the stechec C# generator spelled them
// (construire_route -> Api.ConstruireRoute), and the constants (Constants.cs). The
// champion is class Prologin.Prologin with the callbacks InitGame, Jouer, Enchere,
// Placement, EndGame as public methods. Rules and error codes: docs/rules.md section 6.
//
// Owns: the protocol streams, the state cache (one `etat` per callback and after each
// successful action) and the local argument checks. Main.cs runs the loop.
using System;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;

namespace Prologin
{
    public partial class Api
    {
        static Stream input;
        static Stream output;
        internal static string Callback = "(none)";

        static readonly byte[] buf = new byte[65536];
        static int bufStart, bufEnd;
        static byte[] line = new byte[1024];

        static bool dirty = true;
        static readonly int[] figures = new int[16];
        static readonly byte[] kinds = new byte[10000];
        static readonly byte[] owners = new byte[10000];
        static readonly byte[] monuments = new byte[10000];
        static readonly byte[] values = new byte[10000];

        protected Api() { }

        internal static void Connect(Stream protoIn, Stream protoOut)
        {
            input = protoIn;
            output = protoOut;
        }

        /// The conversation with the referee broke down: say so and exit at once.
        internal static void Fail(string message)
        {
            Console.Out.Flush();
            Console.Error.WriteLine("prologin kit (C#): error in " + Callback + ": " + message);
            Console.Error.Flush();
            Environment.Exit(2);
        }

        internal static void Send(string text)
        {
            try
            {
                byte[] data = Encoding.ASCII.GetBytes(text);
                output.Write(data, 0, data.Length);
                output.Flush();
            }
            catch (IOException e)
            {
                Fail("writing to the referee: " + e.Message);
            }
        }

        /// Reads one line into `line`; its length, or -1 at end of file.
        static int ReadLine()
        {
            int len = 0;
            for (;;)
            {
                if (bufStart == bufEnd)
                {
                    try
                    {
                        bufEnd = input.Read(buf, 0, buf.Length);
                    }
                    catch (IOException e)
                    {
                        Fail("reading from the referee: " + e.Message);
                    }
                    bufStart = 0;
                    if (bufEnd <= 0)
                    {
                        bufEnd = 0;
                        return len == 0 ? -1 : len;
                    }
                }
                while (bufStart < bufEnd)
                {
                    byte b = buf[bufStart++];
                    if (b == (byte)'\n')
                    {
                        if (len > 0 && line[len - 1] == (byte)'\r') len--;
                        return len;
                    }
                    if (len == line.Length) Array.Resize(ref line, 2 * len);
                    line[len++] = b;
                }
            }
        }

        internal static string ReadText()
        {
            int len = ReadLine();
            return len < 0 ? null : Encoding.ASCII.GetString(line, 0, len);
        }

        static int ExpectLine(string what)
        {
            int len = ReadLine();
            if (len < 0) Fail("the referee closed the connection while we waited for `" + what + "`");
            return len;
        }

        static int Parse(int from, int to, string what)
        {
            long v = 0;
            int i = from;
            bool neg = i < to && line[i] == (byte)'-';
            if (neg) i++;
            if (i == to || to - i > 10) Fail("unparsable answer to `" + what + "`: expected an integer");
            for (; i < to; i++)
            {
                int d = line[i] - '0';
                if (d < 0 || d > 9) Fail("unparsable answer to `" + what + "`: expected an integer");
                v = v * 10 + d;
            }
            return (int)(neg ? -v : v);
        }

        static int Ask(string request)
        {
            Send(request + "\n");
            return Parse(0, ExpectLine(request), request);
        }

        static int Act(string request)
        {
            int r = Ask(request);
            if (r == SUCCES) dirty = true;
            return r;
        }

        static void Refresh()
        {
            Send("etat\n");
            int len = ExpectLine("etat");
            int field = 0, start = 0;
            for (int i = 0; i <= len; i++)
            {
                if (i < len && line[i] != (byte)' ') continue;
                if (field < 16)
                {
                    figures[field] = Parse(start, i, "etat");
                }
                else if (field < 20)
                {
                    if (i - start != 10000)
                        Fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters");
                    byte[] to = field == 16 ? kinds : field == 17 ? owners : field == 18 ? monuments : values;
                    Array.Copy(line, start, to, 0, 10000);
                }
                field++;
                start = i + 1;
            }
            if (field != 20)
                Fail("unparsable answer to `etat`: expected 16 integers and 4 strings of 10000 characters");
            dirty = false;
            if (localRules) rulesBoard(kinds, owners);
        }

        internal static void MarkDirty() { dirty = true; }

        static int Figure(int i)
        {
            if (dirty) Refresh();
            return figures[i];
        }

        static int Cell(int x, int y)
        {
            if (x < 0 || x >= 100 || y < 0 || y >= 100) return -1;
            if (dirty) Refresh();
            return y * 100 + x;
        }

        // Information functions.

        public static int TypeCase(int x, int y)
        {
            int i = Cell(x, y);
            return i < 0 ? HORS_TERRAIN : kinds[i] - '0';
        }

        public static int ValeurCase(int x, int y)
        {
            int i = Cell(x, y);
            return i < 0 ? HORS_TERRAIN : values[i] - 64;
        }

        public static int Appartenance(int x, int y)
        {
            int i = Cell(x, y);
            return i < 0 ? HORS_TERRAIN : owners[i] - '0';
        }

        public static int TypeMonument(int x, int y)
        {
            int i = Cell(x, y);
            if (i < 0) return HORS_TERRAIN;
            return monuments[i] == (byte)'.' ? PAS_DE_MONUMENT : monuments[i] - 'a';
        }

        public static int PorteeMonument(int num_monument)
        {
            return num_monument >= 0 && num_monument < MAX_MONUMENTS ? Portee[num_monument] : PAS_DE_MONUMENT;
        }

        public static int PrestigeMonument(int num_monument)
        {
            return num_monument >= 0 && num_monument < MAX_MONUMENTS ? Prestige[num_monument] : PAS_DE_MONUMENT;
        }

        public static int NumeroTour() { return Figure(0); }

        public static int Commence() { return Figure(2); }

        public static int MontantEncheres(int num_joueur)
        {
            return num_joueur >= 0 && num_joueur <= 2 ? Figure(13 + num_joueur) : JOUEUR_INCORRECT;
        }

        public static int VainqueurEncheres() { return Figure(4); }

        /// The player's houses' worth, money excluded: not the final score (rule 9).
        public static int Score(int num_joueur)
        {
            return num_joueur >= 0 && num_joueur <= 2 ? Figure(10 + num_joueur) : JOUEUR_INCORRECT;
        }

        public static int Finances(int num_joueur)
        {
            return num_joueur >= 0 && num_joueur <= 2 ? Figure(7 + num_joueur) : JOUEUR_INCORRECT;
        }

        public static int MonumentEnCours() { return Figure(3); }

        public static int Distance(int x1, int y1, int x2, int y2)
        {
            if (!localRules) return Ask("distance " + x1 + " " + y1 + " " + x2 + " " + y2);
            if (dirty) Refresh();
            return rulesDistance(x1, y1, x2, y2);
        }

        public static int RoutePossible(int x, int y)
        {
            if (!localRules) return Ask("route_possible " + x + " " + y);
            if (dirty) Refresh();
            return rulesRoutePossible(x, y);
        }

        public static int ConstructionPossible(int x, int y)
        {
            if (!localRules) return Ask("construction_possible " + x + " " + y);
            if (dirty) Refresh();
            return rulesConstructionPossible(x, y);
        }

        // The board's rules (rules 19 to 21): the C kit's, one implementation for every kit
        // (c/kit/prologin_rules_lib.c), in the shared library scripts/build-champions.sh
        // builds in the C kit, libprologin_rules.so: $PROLOGIN_KITS/c (the referee sets
        // PROLOGIN_KITS: /kits in the jail), or the file PROLOGIN_RULES_LIB names. Loaded
        // with dlopen and called through P/Invoke'd function pointers (a DllImport names its
        // library at compile time). The board is given to it at each fill of the cache.
        // Without the library, each of the three calls is a round trip, said once.
        [DllImport("libdl.so.2")] static extern IntPtr dlopen(string file, int mode);
        [DllImport("libdl.so.2")] static extern IntPtr dlsym(IntPtr library, string name);
        [DllImport("libdl.so.2")] static extern IntPtr dlerror();

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        delegate void BoardFunction(byte[] kinds, byte[] owners);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        delegate int CellFunction(int x, int y);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        delegate int DistanceFunction(int x1, int y1, int x2, int y2);

        static BoardFunction rulesBoard;
        static CellFunction rulesRoutePossible, rulesConstructionPossible;
        static DistanceFunction rulesDistance;
        static readonly bool localRules = LoadRules();

        static T Function<T>(IntPtr library, string name) where T : class
        {
            IntPtr f = dlsym(library, name);
            if (f == IntPtr.Zero) throw new EntryPointNotFoundException(name);
            return (T)(object)Marshal.GetDelegateForFunctionPointer(f, typeof(T));
        }

        static bool LoadRules()
        {
            string path = Environment.GetEnvironmentVariable("PROLOGIN_RULES_LIB");
            string kits = Environment.GetEnvironmentVariable("PROLOGIN_KITS");
            if (string.IsNullOrEmpty(path) && !string.IsNullOrEmpty(kits))
                path = kits + "/c/libprologin_rules.so";
            string why;
            if (string.IsNullOrEmpty(path))
            {
                why = "neither PROLOGIN_RULES_LIB nor PROLOGIN_KITS is set";
            }
            else
            {
                IntPtr library = dlopen(path, 2 /* RTLD_NOW */);
                if (library == IntPtr.Zero)
                {
                    why = Marshal.PtrToStringAnsi(dlerror());
                }
                else
                {
                    try
                    {
                        rulesBoard = Function<BoardFunction>(library, "prologin_rules_board");
                        rulesRoutePossible = Function<CellFunction>(library, "prologin_rules_route_possible");
                        rulesConstructionPossible = Function<CellFunction>(library, "prologin_rules_construction_possible");
                        rulesDistance = Function<DistanceFunction>(library, "prologin_rules_distance");
                        return true;
                    }
                    catch (EntryPointNotFoundException e)
                    {
                        why = path + ": no function " + e.Message;
                    }
                }
            }
            Console.Error.WriteLine("prologin kit (C#): no rules library (" + why + "): construction_possible, "
                + "route_possible and distance ask the referee, a round trip each (build it: scripts/build-champions.sh)");
            return false;
        }

        public static int CoutAchatMaison() { return Figure(5); }

        public static int CoutAchatRoute() { return Figure(6); }

        /// 1 in your own turn, else 0 (rule 16).
        public static int MonTour() { return Figure(1); }

        // Actions.

        public static int ConstruireRoute(int x, int y) { return Act("construire_route " + x + " " + y); }

        public static int ConstruireMaison(int x, int y) { return Act("construire_maison " + x + " " + y); }

        public static int ReserverCase(int x, int y) { return Act("reserver_case " + x + " " + y); }

        public static int DetruireMaison(int x, int y) { return Act("detruire_maison " + x + " " + y); }

        public static int VendreMaison(int x, int y) { return Act("vendre_maison " + x + " " + y); }

        public static int Encherir(int montant) { return Act("encherir " + montant); }

        public static int ConstruireMonument(int x, int y) { return Act("construire_monument " + x + " " + y); }
    }
}
