/** System prompt of the llm task designer. */
export const TASK_DESIGNER_PROMPT = `You design tasks for an agent benchmark built from a company's procedures.
You are given one customer and the units of work that can be carried out for that customer (each: a
procedure and the record it is about). Choose one to three units that belong together in one
customer conversation (they share records, prerequisites or timing), preferring combinations where a
rule bites (an approval, a fact only the customer knows, a deadline). Then write the customer's
persona (who they are, how they talk) and their opening request: a natural first message that names
each record it is about and what they want done, without mentioning procedure ids, tools or rules.`;
