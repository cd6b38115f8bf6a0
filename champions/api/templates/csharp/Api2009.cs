// The 2009 form of the C# kit's API: the class Prologin.API that the 2009 generator gave
// (`API.type_case(x, y)`, `API.SUCCES`, `API.mon_tour()` a bool), each function the
// method of Prologin.Api of the same name in today's spelling (`Api.TypeCase`), the
// constants inherited from it. A 2009 champion's callbacks (static lowercase methods of
// class Prologin: `static void jouer()`) are found by Main.cs.
//
// {{ notice | wrap(86) | join("\n// ") }}
namespace Prologin
{
    public class API : Api
    {
        protected API() { }
{% for f in api.functions %}

        public static {{ "bool" if f.result == "bool" else "int" }} {{ f.name }}({% for a in f.args %}int {{ a.name }}{% if not loop.last %}, {% endif %}{% endfor %})
        {
            return Api.{{ f.name | upper_camel }}({{ f.args | map(attribute="name") | join(", ") }}){{ " != 0" if f.result == "bool" else "" }};
        }
{% endfor %}
    }
}
