// Greetings, thanks and sign-offs, the patterns of the three languages together: dropped by `concise`,
// recognised before `explanatory` adds its own (each language's phrases are in its file).

export const signOffPhrase =
  /^(?:best regards|kind regards|warm regards|regards|best wishes|all the best|best|cheers|sincerely|many thanks|thanks again|thanks so much|thank you so much|thanks|thank you|talk soon|take care|saludos cordiales|un saludo|saludos|atentamente|cordialmente|un abrazo|abrazos|muchas gracias|gracias|abraços|um abraço|abs|atenciosamente|att|obrigad[oa]|muito obrigad[oa]|até mais)$/i;

export const courtesySentences: RegExp[] = [
  /^(?:thanks|thank you|many thanks)(?: so much| very much| a lot| again| in advance)?(?: for (?:reaching out|contacting us|getting in touch|writing(?: to us)?|your (?:message|patience|understanding|time|email|question|inquiry|enquiry|order|purchase|business)|waiting|asking))?$/i,
  /^(?:i |we )?hope (?:this|that|it) helps$/i,
  /^(?:i |we )?hope (?:you(?:'re|’re| are)(?: doing)? well|all is well|you(?:'re|’re| are) having a (?:great|good|nice|lovely) (?:day|week))$/i,
  /^(?:please )?(?:let (?:us|me) know|feel free to (?:reach out|contact us|ask|let us know|get in touch)|(?:do not|don't|don’t) hesitate to (?:reach out|contact us|ask|get in touch))(?: (?:if|should) you (?:have|need) (?:any(?:thing)?|more|other|further)(?: (?:other|more|further|else))?(?: questions?| help| assistance)?)?(?: if (?:there(?:'s|’s| is) )?anything else(?: (?:we|i) can (?:help|do)(?: for you)?(?: with)?)?)?$/i,
  /^have a (?:great|nice|good|lovely|wonderful) (?:day|one|week|weekend|evening)$/i,
  /^(?:(?:best|kind|warm) )?regards$|^cheers$|^sincerely$|^all the best$|^take care$/i,
  /^(?:muchas )?gracias(?: de antemano| por (?:tu|su) (?:mensaje|paciencia|comprensi[oó]n|tiempo|consulta|compra|confianza|espera)| por (?:escribirnos|contactarnos|comunicarte|comunicarse|esperar))?$/i,
  /^(?:un )?saludos?(?: cordiales)?$|^atentamente$|^cordialmente$|^un abrazo$/i,
  /^espero que (?:te|le|les) (?:sirva|ayude)$/i,
  /^espero que (?:est[eé]s|est[eé]) (?:muy )?bien$/i,
  /^(?:quedo|quedamos) (?:atent[oa]s?|a (?:tu|su) disposici[oó]n)$/i,
  /^cualquier (?:otra )?(?:duda|consulta|pregunta),? (?:me|nos) (?:dices|avisas|escribes|comentas|dice|avisa|escribe|comenta)$/i,
  /^no (?:dudes|dude) en (?:escribirnos|contactarnos|preguntar|consultarnos)(?: si (?:tienes|tiene) (?:cualquier|alguna) (?:otra )?(?:duda|pregunta|consulta))?$/i,
  /^(?:qu[eé] tal|c[oó]mo (?:est[aá]s|est[aá]|te va|le va)|how are you(?: doing)?|how(?:'s|’s| is) it going)$/i,
  /^que (?:tengas|tenga) (?:un )?(?:buen|lindo|excelente|feliz) (?:d[ií]a|fin de semana|tarde)$/i,
  /^(?:muito )?obrigad[oa](?: desde já| pela (?:mensagem|paciência|compreensão|preferência|atenção|espera)| por (?:entrar em contato|escrever|esperar|aguardar|sua (?:mensagem|paciência|compreensão)))?$/iu,
  /^(?:um )?abraços?$|^abs$|^atenciosamente$|^att$|^até mais$/iu,
  /^espero (?:ter ajudado|que (?:isso )?(?:ajude|sirva))$/iu,
  /^espero que (?:você|vc) (?:esteja )?bem$/iu,
  /^(?:fico|ficamos|estou|estamos) (?:à|a) (?:sua )?disposição$/iu,
  /^qualquer (?:outra )?(?:dúvida|duvida|coisa|pergunta),? (?:é só )?(?:chamar|falar|avisar|perguntar)$/iu,
  /^(?:tudo bem|tudo bom|tudo certo|como vai|como (?:você|vc) está)$/iu,
  /^(?:tenha|tenham) (?:um )?(?:ótimo|otimo|bom|excelente) (?:dia|fim de semana|final de semana|tarde)$/iu,
];

export type CourtesyPhrases = {
  greeting: string;
  thanks: (name: string | null) => string;
  help: string;
  signature: (name: string) => string;
};

export const openingThanksPattern =
  /\b(?:thank you|thanks|many thanks) for (?:contacting|reaching out|getting in touch|writing|your (?:message|email|inquiry|enquiry|question|patience)|waiting)|\bgracias por (?:contactar|contactarnos|escribir|escribirnos|comunicarte|comunicarse|ponerte en contacto|ponerse en contacto|tu (?:mensaje|consulta|paciencia|espera)|su (?:mensaje|consulta|paciencia|espera)|esperar)|\bobrigad[oa] (?:por|pela) (?:entrar em contato|escrever|sua mensagem|mensagem|contato|paciência|espera)/iu;

export const helpOfferPattern =
  /\bany (?:other|further|more) questions\b|\bhappy to help\b|\bhere to help\b|\blet (?:us|me) know if\b|\b(?:do not|don't|don’t) hesitate\b|\bfeel free to\b|\b(?:cualquier|alguna) (?:otra )?(?:pregunta|duda|consulta)|\bencantad[oa]s de ayudar|\baqu[ií] para ayudar|\bno dudes? en\b|\bquedamos a (?:tu|su) disposici|\bqualquer (?:outra )?(?:dúvida|pergunta)|\b(?:à|a) disposição|\bestamos aqui para ajudar/iu;
