// Fastify compiles a serializer (fast-json-stringify) for every response schema of every route as an
// app starts: about a second of CPU, most of what an app's start costs. What is compiled depends only
// on the response schema, the shared schemas and the serializer options, so a process that builds
// several apps (a second instance beside the first in a test, an app rebuilt to compare answers with
// a fresh one) compiles each schema once, and each when a route first answers with it.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>
type Serializer = ReturnType<ReturnType<SerializerFactory>>

const compileSerializers: SerializerFactory = SerializerSelector()
/** Compiled serializers by what they were compiled from; bounded by the routes' response schemas. */
const compiled = new Map<string, Serializer>()

/** Fastify's serializer factory (`schemaController.compilersFactory.buildSerializer`), remembering what it compiled. */
export const rememberingSerializerFactory: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compile = compileSerializers(externalSchemas, serializerOptions)
  const context = JSON.stringify([externalSchemas ?? null, serializerOptions ?? null])
  return (route) => {
    // Looked up (and compiled) when the route first answers with that status, not as the app starts:
    // keying every route's schemas cost ~95 ms of each app's start.
    let serializer: Serializer | undefined
    return ((data: unknown) => {
      if (!serializer) {
        const key = `${context}\n${JSON.stringify(route.schema)}`
        serializer = compiled.get(key)
        if (!serializer) {
          serializer = compile(route)
          compiled.set(key, serializer)
        }
      }
      return serializer(data)
    }) as Serializer
  }
}
