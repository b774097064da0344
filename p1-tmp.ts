import { polishWithRules, polishStyles } from "@/lib/profile/polish-rules";
const samples = [
 "hi there!  u can track ur order here: https://shop.example.com/track?id=A-1234 . thx",
 "Hello Maria,\n\ni just wanted to let you know that ur refund of $49.99 was processed on 12/03/2026.it should show up in 3-5 business days\n\nBest regards,\nAna",
 "Hello,\n\nActually the Premium plan costs €29/month and u can cancel anytime at www.acme.com/billing. Please note that prices r in EUR.\n\nThanks,\nTom",
 "sorry for the delay!! we shipped ur replacement via UPS yesterday, tracking number 1Z999AA10123456784. it should arrive by Friday 5 pm",
 "i'm really sorry, ur order #4521 was charged twice ($15.00). i've already asked our billing team to refund it, u should see it in 2-3 days. lmk if u have questions",
 "buenos días Sr. Pérez, la verdad creo que el envío tarda 2 días hábiles. tb puede escribir a soporte@tienda.es. Saludos",
 "Hola Ana!\nte comento q el reembolso de $35,50 ya fue procesado el 05/04/2026. tmb te enviamos la factura x correo. cualquier duda me dices",
 "Buenas tardes! básicamente el producto Modelo X200 está agotado , pero q llega de nuevo el 15 de mayo. xfa revisa el enlace https://tienda.example.com/x200 para reservarlo",
 "ntp, ya revisamos tu pedido #A-7781 y sale hoy x DHL Express. el costo de envío es de 4,99 € . Gracias por tu paciencia!",
 "¿pq no nos mandas una foto del daño? así podemos hacer el cambio rápido.. nuestro horario es de 9:00 a 18:00 hrs",
 "Estimada Laura, solo quería avisarte q tu suscripción Plus se renueva el 1 de junio por $9.99 al mes. si quieres cancelarla, entra en www.tienda.com/cuenta. Un saludo",
];
for (const t of samples) { console.log("=== IN:", JSON.stringify(t)); for (const s of polishStyles) { const o = polishWithRules({text:t, style:s, businessName:"Acme"}); const o2 = polishWithRules({text:o, style:s, businessName:"Acme"}); console.log(`--- ${s}${o2===o?"":" NOT IDEMPOTENT"}\n${o}`); if (o2!==o) console.log("2nd:\n"+o2);} }
