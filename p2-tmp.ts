import { polishWithRules, polishStyles } from "@/lib/profile/polish-rules";
const samples = [
 "hi there!  u can track ur order here: https://shop.example.com/track?id=A-1234 . thx",
 "Hello Maria,\n\ni just wanted to let you know that ur refund of $49.99 was processed on 12/03/2026.it should show up in 3-5 business days\n\nBest regards,\nAna",
 "Hello,\n\nActually the Premium plan costs €29/month and u can cancel anytime at www.acme.com/billing. Please note that prices r in EUR.\n\nThanks,\nTom",
 "sorry for the delay!! we shipped ur replacement via UPS yesterday, tracking number 1Z999AA10123456784. it should arrive by Friday 5 pm",
 "i'm really sorry, ur order #4521 was charged twice ($15.00). i've already asked our billing team to refund it, u should see it in 2-3 days. lmk if u have questions",
 "Hey! basically the Nike Air size 42 is out of stock , i think it will be back by March 15. I was wondering if you could choose another size",
 "Thanks so much! Your order ORD-5521 ships today. email support@acme.com if u need anything. Have a great day!",
 "pls send me a pic of the damaged item asap , btw we r open tmrw from 9am to 6pm",
 "idk if the package arrived b4 the weekend, can u check order #88231 ???",
 "hola! q tal? tu pedido 4512 llega mañana , xq hubo un retraso con DHL. porfa confirma la dirección",
 "buenos días Sr. Pérez, la verdad creo que el envío tarda 2 días hábiles. tb puede escribir a soporte@tienda.es. Saludos",
 "Hola Ana!\nte comento q el reembolso de $35,50 ya fue procesado el 05/04/2026. tmb te enviamos la factura x correo. cualquier duda me dices",
 "Buenas tardes! básicamente el producto Modelo X200 está agotado , pero q llega de nuevo el 15 de mayo. xfa revisa el enlace https://tienda.example.com/x200 para reservarlo",
 "ntp, ya revisamos tu pedido #A-7781 y sale hoy x DHL Express. el costo de envío es de 4,99 € . Gracias por tu paciencia!",
 "¿pq no nos mandas una foto del daño? así podemos hacer el cambio rápido.. nuestro horario es de 9:00 a 18:00 hrs",
 "Estimada Laura, solo quería avisarte q tu suscripción Plus se renueva el 1 de junio por $9.99 al mes. si quieres cancelarla, entra en www.tienda.com/cuenta. Un saludo",
 "Thanks so much!", "hola", "   ", "- item one\n- item two\n\n\n\nsee u", "Q: where is my order?\nA: it ships tmrw",
];
let bad = 0, n = 0;
const texts = [...samples];
for (const a of samples) for (const b of samples) { texts.push(a + " " + b); texts.push(a + "\n\n" + b); }
for (const t of texts) for (const name of [null, "Acme", "acme store", "Café Luna S.L."]) for (const s of polishStyles) {
  n++;
  const o = polishWithRules({text:t, style:s, businessName:name});
  const o2 = polishWithRules({text:o, style:s, businessName:name});
  if (o !== o2) { bad++; if (bad < 8) console.log("STYLE", s, name, JSON.stringify(t), "\n1:", JSON.stringify(o), "\n2:", JSON.stringify(o2)); }
}
console.log("bad", bad, "of", n);
