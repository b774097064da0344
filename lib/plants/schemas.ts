import { z } from "zod";
import "zod-openapi";

const INT32_MAX = 2_147_483_647;
const INT64_MAX = 9_223_372_036_854_775_807n;

/**
 * A list answers at most this many plants, with or without `limit`: the plant store has
 * no cursor, and an unbounded list would load a whole table into memory.
 */
export const PLANT_LIST_CAP = 1000;

const stringField = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`) });

const plantNameSchema = stringField("name")
  .trim()
  .min(1, "name is required")
  .max(200, "name must be at most 200 characters")
  .meta({ description: "The name of the plant (1 to 200 characters; surrounding spaces are removed).", example: "Monstera deliciosa" });

const plantTagSchema = stringField("tag")
  .max(100, "tag must be at most 100 characters")
  .meta({ description: "A free tag to sort plants by (at most 100 characters).", example: "tropical" });

/** The body of `POST /plant-store/plants`; fields other than name and tag are ignored. */
export const plantSchema = z
  .object({ name: plantNameSchema, tag: plantTagSchema.optional() }, { error: "the body must be a JSON object" })
  .meta({
    id: "Plant",
    description: "A plant to add to the store. Fields other than `name` and `tag` are ignored.",
    example: { name: "Monstera deliciosa", tag: "tropical" },
  });
export type PlantInput = z.infer<typeof plantSchema>;

/** A stored plant: the Plant fields and its id. */
export const newPlantSchema = z
  .strictObject({
    id: z
      .int()
      .min(1)
      .meta({ format: "int64", description: "Identification number of the plant.", example: 42 }),
    ...plantSchema.shape,
  })
  .meta({
    id: "NewPlant",
    description: "A plant of the store with its identification number.",
    example: { id: 42, name: "Monstera deliciosa", tag: "tropical" },
  });
export type NewPlant = z.infer<typeof newPlantSchema>;

export const plantErrorSchema = z
  .object({
    error: z.int32().meta({ format: "int32", description: "The HTTP status, repeated.", example: 400 }),
    message: z.string().meta({ description: "What went wrong, in a sentence.", example: "name is required" }),
  })
  .meta({ id: "Error", description: "The body of every error of the plant store." });
export type PlantError = z.infer<typeof plantErrorSchema>;

const digitsToNumber = (value: unknown) => (typeof value === "string" && /^[0-9]+$/.test(value) ? Number(value) : value);
const digitsToBigInt = (value: unknown) => (typeof value === "string" && /^[0-9]+$/.test(value) ? BigInt(value) : value);

const limitError = `limit must be an integer from 1 to ${INT32_MAX}`;

export const listPlantsQuery = z.object({
  limit: z
    .preprocess(digitsToNumber, z.int32({ error: limitError }).min(1, limitError))
    .optional()
    .meta({
      format: "int32",
      description: `The maximum number of plants to return. At most ${PLANT_LIST_CAP} are returned in any case, oldest first.`,
      example: 20,
    }),
});

const idError = `id must be an integer from 1 to ${INT64_MAX}`;

export const plantIdParams = z.object({
  id: z
    .preprocess(digitsToBigInt, z.bigint({ error: idError }).min(1n, idError).max(INT64_MAX, idError))
    // A path parameter is always required; said explicitly because a preprocessed schema
    // accepts undefined as input, which some generator versions read as optional.
    .meta({ minimum: 1, description: "Identification number of the plant.", example: 42, param: { required: true } }),
});

/** The public shape of a stored plant; a plant without a tag has no `tag` field. */
export function presentPlant(row: { id: number; name: string; tag: string | null }): NewPlant {
  return newPlantSchema.parse({ id: row.id, name: row.name, ...(row.tag !== null ? { tag: row.tag } : {}) });
}
