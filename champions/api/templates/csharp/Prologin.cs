// The C# kit's `script` champion: the cross-language script
// (champions/api/scenario.toml), every answer logged as `script: <call> = <answer>`
// (champions/api/README.md) with Console.WriteLine, which the kit sends to the log.
//
// {{ notice | wrap(86) | join("\n// ") }}
using System;

#pragma warning disable 0219 // `t`, unused in a callback without a turn-specific step

namespace Prologin
{
    class Prologin
    {
        static void Say(string call, int answer)
        {
            Console.WriteLine("script: " + call + " = " + answer);
        }

        /// One digest per cell getter over the whole map: h = (31 h + answer + 100) mod 1000003.
        static void Scan()
        {
            long[] h = { 0, 0, 0, 0 };
            for (int y = 0; y < Api.TAILLE_CARTE; y++)
                for (int x = 0; x < Api.TAILLE_CARTE; x++)
                {
                    h[0] = (h[0] * 31 + Api.TypeCase(x, y) + 100) % 1000003;
                    h[1] = (h[1] * 31 + Api.ValeurCase(x, y) + 100) % 1000003;
                    h[2] = (h[2] * 31 + Api.Appartenance(x, y) + 100) % 1000003;
                    h[3] = (h[3] * 31 + Api.TypeMonument(x, y) + 100) % 1000003;
                }
            Console.WriteLine("script: scan = " + h[0] + " " + h[1] + " " + h[2] + " " + h[3]);
        }

        static int Start(string callback)
        {
            int t = Api.NumeroTour();
            Console.WriteLine("script: " + callback + " " + t);
            return t;
        }
{% for cb in api.callbacks %}

        public void {{ cb.name | upper_camel }}()
        {
            int t = Start("{{ cb.name }}");
{% for step in scenario.steps if step.callback == cb.name %}
            if ({{ "true" if step.turn == 0 else "t == " ~ step.turn }})
            {
{% for c in step.calls %}
{% if c.name == "scan" %}
                Scan();
{% else %}
                Say("{{ c.name }}{% for a in c.args %} {{ a }}{% endfor %}", Api.{{ c.name | upper_camel }}({{ c.args | join(", ") }}));
{% endif %}
{% endfor %}
            }
{% endfor %}
        }
{% endfor %}
    }
}
